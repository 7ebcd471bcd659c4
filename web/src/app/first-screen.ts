/**
 * A company link's first search, started before React renders (start-first-screen.ts runs this
 * as the entry's first import). The page asks the employer behind the link (the alias), then the
 * address's place, then searches from them: three round trips one after the other, each after a
 * render. Here the three start at once, the search asking the server to resolve the alias and the
 * ZIP code itself (`company` and `userZipCode` in its query). The page finds the answers in the
 * query cache, under its own keys, so nothing is asked twice; the entry (main.tsx) holds the
 * first render for them a little, so the cards come with it when the answers are near.
 *
 * Only a signed-out visit to the marketplace with a company link is started here: a signed-in
 * member's search depends on the member (their employer, a family member acted on).
 */
import type { QueryClient } from '@tanstack/react-query';
import { geocodeAddressQueryOptions, geocodeFirst } from '@/api/market/geocode';
import { type CompanyAlias, companyAliasQueryOptions, resolveCompanyAlias } from '@/api/market/resolve-company-alias';
import { searchMarket, searchMarketQueryOptions } from '@/api/market/search-market';
import type { LatLng, SearchKeyParams, SearchResponse } from '@/api/market/types';
import { paths } from '@/config/paths';
import { asLinked, decodeSearchState } from '@/features/marketplace/utils/search-url';
import type { SearchState } from '@/features/marketplace/utils/search-state';
import { getAccessToken } from '@/lib/session';

/** A ZIP code the search call can measure from without a geocoding round trip of its own. */
const ZIP_CODE = /^\d{5}(-\d{4})?$/;

/**
 * How far apart the server's origin for a ZIP code and the geocoded place may be for the early
 * answer to stand for the page's own search: the page's link keeps 5 decimals (about a metre).
 */
const SAME_ORIGIN_DEGREES = 1e-4;

/** A query function that takes an answer already on its way the first time, and asks again after. */
function firstThen<T>(answer: Promise<T>, again: () => Promise<T>): () => Promise<T> {
  let taken = false;
  return () => {
    if (taken) return again();
    taken = true;
    return answer;
  };
}

const near = (a: LatLng, b: LatLng) => Math.abs(a.lat - b.lat) <= SAME_ORIGIN_DEGREES && Math.abs(a.lng - b.lng) <= SAME_ORIGIN_DEGREES;

/**
 * The search the page runs once it knows the employer and the place: the link's, from the place
 * as the link keeps it (coordinates rounded), with the alias's employer.
 */
export function pageSearchParams(linked: SearchState, employer: CompanyAlias, place: LatLng | null): SearchKeyParams {
  const origin = place ? asLinked(place) : linked.origin;
  return { origin, page: linked.page, filters: linked.filters, employer: employer.companyName, alias: employer.alias, userZipCode: linked.userZipCode, dependentId: null };
}

/**
 * Starts a signed-out company link's calls for the URL the page opens with: the alias, the
 * address's place and the search at once. Each answer lands in the query cache under the key the
 * page asks it by; the search's as soon as the alias and the place tell that key. Returns the
 * started search's answer once all three are in the cache (null when nothing was started or
 * a call failed), so the entry can hold the first render for it; it never rejects.
 */
export function startFirstScreen(queryClient: QueryClient, location: Pick<Location, 'pathname' | 'search'>): Promise<SearchResponse | null> {
  if (getAccessToken() !== null || location.pathname !== paths.marketplace.path) return Promise.resolve(null);
  const params = new URLSearchParams(location.search);
  // As the page reads it (its query key is the parameter as written).
  const company = params.get('company');
  const linked = decodeSearchState(params);
  // Favorites is a signed-in filter: the page drops it first, then searches.
  if (!company?.trim() || linked.filters.favorites) return Promise.resolve(null);
  const geocoded = linked.origin === null && linked.address !== '';
  if (linked.origin === null && !geocoded) return Promise.resolve(null);
  const zipCode = linked.userZipCode ?? (geocoded && ZIP_CODE.test(linked.address) ? linked.address : null);

  // The search the server can answer alone: the link's coordinates, else its ZIP code.
  const early =
    linked.origin !== null || zipCode !== null
      ? searchMarket({ origin: linked.origin, page: linked.page, filters: linked.filters, employer: null, alias: company, userZipCode: zipCode, dependentId: null })
      : null;
  const aliasAnswer = resolveCompanyAlias(company);
  const placeAnswer = geocoded ? geocodeFirst({ address: linked.address }) : null;
  for (const answer of [early, aliasAnswer, placeAnswer]) answer?.catch(() => undefined);

  // The page's queries take these answers (a retry asks again), all at once: the page renders
  // the employer, the place and the cards together rather than one answer per render.
  const allAnswered = Promise.allSettled([early, aliasAnswer, placeAnswer]);
  const together = <T>(answer: Promise<T>) => allAnswered.then(() => answer);
  const cached = [queryClient.prefetchQuery({ ...companyAliasQueryOptions(company), queryFn: firstThen(together(aliasAnswer), () => resolveCompanyAlias(company)) })];
  if (placeAnswer) cached.push(queryClient.prefetchQuery({ ...geocodeAddressQueryOptions(linked.address), queryFn: firstThen(together(placeAnswer), () => geocodeFirst({ address: linked.address })) }));
  const seeded = Promise.all([aliasAnswer, placeAnswer]).then(async ([employer, place]) => {
    const search = pageSearchParams(linked, employer, place?.location ?? null);
    // The early answer stands for the page's search when it measured from the same place
    // (the server's ZIP centroid and the geocoded place agree); otherwise the page's own call.
    const answer = early
      ? early.then((found) => (place === null || near(found.origin, place.location) ? found : searchMarket(search)), () => searchMarket(search))
      : searchMarket(search);
    cached.push(queryClient.prefetchQuery({ ...searchMarketQueryOptions(search), queryFn: firstThen(together(answer), () => searchMarket(search)) }));
    await Promise.all(cached);
    return answer;
  });
  return seeded.catch(() => null);
}
