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
 *
 * When the server painted the link's first screen (its cards in the HTML), it also embedded the
 * three answers: they go into the cache instead, and nothing is asked.
 */
import type { QueryClient } from '@tanstack/react-query';
import { firstPlace, geocodeAddressQueryOptions, geocodeFirst } from '@/api/market/geocode';
import { type CompanyAlias, companyAliasQueryOptions, resolveCompanyAlias } from '@/api/market/resolve-company-alias';
import { searchMarket, searchMarketQueryOptions } from '@/api/market/search-market';
import type { GeocodeResponse, LatLng, SearchKeyParams, SearchResponse } from '@/api/market/types';
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

/** The element the server puts a painted first screen's answers in (crates/api/src/first_paint.rs). */
export const PAINTED_ANSWERS_ID = 'first-screen-answers';

/**
 * What the server answered for a search link it painted: the alias, the address's place (null
 * when the link has coordinates) and the page's own search, as the three calls would answer them,
 * for the link's query string `link`.
 */
export interface PaintedAnswers {
  link: string;
  alias: CompanyAlias;
  place: GeocodeResponse | null;
  search: SearchResponse;
}

/** The answers the server embedded in the page, if it painted this link; null otherwise. */
export function readPaintedAnswers(document: Pick<Document, 'getElementById'>, location: Pick<Location, 'search'>): PaintedAnswers | null {
  const text = document.getElementById(PAINTED_ANSWERS_ID)?.textContent;
  if (!text) return null;
  try {
    const answers = JSON.parse(text) as PaintedAnswers;
    return answers.link === location.search ? answers : null;
  } catch {
    return null;
  }
}

/**
 * Puts a painted link's answers in the query cache under the keys the page asks them by, so its
 * first render has the cards the server painted and nothing is asked again.
 */
function seedPaintedAnswers(queryClient: QueryClient, linked: SearchState, company: string, answers: PaintedAnswers): SearchResponse {
  queryClient.setQueryData(companyAliasQueryOptions(company).queryKey, answers.alias);
  const place = answers.place ? firstPlace(answers.place) : null;
  if (place) queryClient.setQueryData(geocodeAddressQueryOptions(linked.address).queryKey, place);
  queryClient.setQueryData(searchMarketQueryOptions(pageSearchParams(linked, answers.alias, place?.location ?? null)).queryKey, answers.search);
  return answers.search;
}

/**
 * Starts a signed-out company link's calls for the URL the page opens with: the alias, the
 * address's place and the search at once. Each answer lands in the query cache under the key the
 * page asks it by; the search's as soon as the alias and the place tell that key. Returns the
 * started search's answer once all three are in the cache (null when nothing was started or
 * a call failed), so the entry can hold the first render for it; it never rejects.
 */
export function startFirstScreen(
  queryClient: QueryClient,
  location: Pick<Location, 'pathname' | 'search'>,
  painted: PaintedAnswers | null = null,
): Promise<SearchResponse | null> {
  if (getAccessToken() !== null || location.pathname !== paths.marketplace.path) return Promise.resolve(null);
  const params = new URLSearchParams(location.search);
  // As the page reads it (its query key is the parameter as written).
  const company = params.get('company');
  const linked = decodeSearchState(params);
  // Favorites is a signed-in filter: the page drops it first, then searches.
  if (!company?.trim() || linked.filters.favorites) return Promise.resolve(null);
  const geocoded = linked.origin === null && linked.address !== '';
  if (linked.origin === null && !geocoded) return Promise.resolve(null);
  if (painted) return Promise.resolve(seedPaintedAnswers(queryClient, linked, company, painted));
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
