import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { ListingCodes } from './types';

/** GET /market/listing-codes: every language, accessibility, service and time zone code with its name. */
export function getListingCodes(signal?: AbortSignal): Promise<ListingCodes> {
  return apiRequest<ListingCodes>('/market/listing-codes', { signal });
}

export function listingCodesQueryOptions() {
  // The lists change only with a new server version.
  return queryOptions({ queryKey: queryKeys.market.listingCodes(), queryFn: ({ signal }) => getListingCodes(signal), staleTime: Infinity });
}

export function useListingCodes(enabled = true) {
  return useQuery({ ...listingCodesQueryOptions(), enabled });
}
