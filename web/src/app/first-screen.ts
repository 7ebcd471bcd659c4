/**
 * The first screen's calls, started before React renders (start-first-screen.ts runs this as the
 * entry's first import). The calls are the screens' own (same query options, same keys), so the
 * screens find them in the cache and nothing is asked twice. Only a signed-out visit to the
 * marketplace is started here: a signed-in member's search depends on the member (their employer,
 * a family member acted on), and a provider is sent elsewhere.
 */
import type { QueryClient } from '@tanstack/react-query';
import { companyAliasQueryOptions } from '@/api/market/resolve-company-alias';
import { geocodeAddressQueryOptions } from '@/api/market/geocode';
import { potentialEmployersQueryOptions } from '@/api/market/get-potential-employers';
import { searchMarketQueryOptions } from '@/api/market/search-market';
import { marketCategoriesQueryOptions } from '@/api/solutions/get-market-categories';
import { paths } from '@/config/paths';
import { decodeSearchState, encodeSearchState } from '@/features/marketplace/utils/search-url';
import { searchReducer } from '@/features/marketplace/utils/search-state';
import { getAccessToken } from '@/lib/session';

/**
 * A company link's search: its employer (the alias's answer) and its address's place, then the
 * search the page runs from them, keyed as the page keys it. Resolves with the link completed by
 * the place's coordinates, as the page would write it (null when there is nothing to write).
 */
async function prefetchCompanySearch(queryClient: QueryClient, params: URLSearchParams, company: string): Promise<URLSearchParams | null> {
  const linked = decodeSearchState(params);
  if (linked.filters.favorites) return null; // a signed-in filter: the page drops it first
  const [{ alias, companyName }, place] = await Promise.all([
    queryClient.fetchQuery(companyAliasQueryOptions(company)),
    linked.origin === null && linked.address ? queryClient.fetchQuery(geocodeAddressQueryOptions(linked.address)) : null,
  ]);
  // The page writes the place into the URL (rounded) and searches from what it reads back.
  const completed = place ? encodeSearchState(searchReducer(linked, { type: 'locate', origin: place.location, address: linked.address }), params) : null;
  const state = completed ? decodeSearchState(completed) : linked;
  if (state.origin === null && !state.userZipCode) return completed;
  await queryClient.prefetchQuery(
    searchMarketQueryOptions({ origin: state.origin, page: state.page, filters: state.filters, employer: companyName, alias, userZipCode: state.userZipCode, dependentId: null }),
  );
  return completed;
}

/**
 * Starts the calls the marketplace makes first, for the URL the page opens with. Resolves when
 * they are answered (never rejects: a failure is the page's to show, asking again), with the link
 * completed by its address's coordinates when there are some to write.
 */
export function prefetchFirstScreen(queryClient: QueryClient, location: Pick<Location, 'pathname' | 'search'>): Promise<URLSearchParams | null> {
  if (getAccessToken() !== null) return Promise.resolve(null);
  if (location.pathname !== paths.marketplace.path && location.pathname !== paths.root.path) return Promise.resolve(null);
  const params = new URLSearchParams(location.search);
  // The employer select's first list and the solution categories under the results.
  void queryClient.prefetchQuery(potentialEmployersQueryOptions(''));
  void queryClient.prefetchQuery(marketCategoriesQueryOptions());
  const company = params.get('company');
  if (company) return prefetchCompanySearch(queryClient, params, company).catch(() => null);
  const { address, origin } = decodeSearchState(params);
  if (address && origin === null) void queryClient.prefetchQuery(geocodeAddressQueryOptions(address));
  return Promise.resolve(null);
}
