import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import { searchFiltersBody } from './search-filters-body';
import type { SearchKeyParams, SearchResponse } from './types';

/**
 * POST /member/app/market/search (or /member/app/family/member/{id}/market for a selected family
 * member): one page of clinics and the nearest clinicians.
 */
/** Cards per page: the marketplace's pages and Find Care's one page alike. */
export const SEARCH_PAGE_SIZE = 6;

export function searchMarket(params: SearchKeyParams, signal?: AbortSignal): Promise<SearchResponse> {
  const { filters } = params;
  const path = params.dependentId ? `/member/app/family/member/${params.dependentId}/market` : '/member/app/market/search';
  return apiRequest<SearchResponse>(path, {
    method: 'POST',
    signal,
    query: {
      page: params.page,
      limit: SEARCH_PAGE_SIZE,
      lat: params.origin?.lat,
      lng: params.origin?.lng,
      company: params.alias,
      userZipCode: params.userZipCode,
    },
    body: { search: { filters: searchFiltersBody(filters, params.employer, params.userZipCode) } },
  });
}

export function searchMarketQueryOptions(params: SearchKeyParams) {
  return queryOptions({
    queryKey: queryKeys.market.search(params),
    queryFn: ({ signal }) => searchMarket(params, signal),
    placeholderData: keepPreviousData,
  });
}

/** Runs the search once there is an origin (or a home zip code) to measure from. */
export function useSearchMarket(params: SearchKeyParams, enabled: boolean) {
  return useQuery({ ...searchMarketQueryOptions(params), enabled: enabled && (params.origin !== null || Boolean(params.userZipCode)) });
}
