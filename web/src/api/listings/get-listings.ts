import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { Listings } from './types';

/** GET /dpcproviders/listings: the provider organisation's locations and clinicians. */
export function getListings(signal?: AbortSignal): Promise<Listings> {
  return apiRequest<Listings>('/dpcproviders/listings', { signal });
}

export function listingsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.providers.listings(), queryFn: ({ signal }) => getListings(signal) });
}

export function useListings() {
  return useQuery(listingsQueryOptions());
}
