import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Vendor } from './types';

/** GET /dpcproviders/market/vendor/{id}: a point-solution vendor. */
export function getVendor(id: number, signal?: AbortSignal): Promise<Vendor> {
  return apiRequest<Vendor>(`/dpcproviders/market/vendor/${id}`, { signal });
}

export function vendorQueryOptions(id: number) {
  return queryOptions({ queryKey: queryKeys.solutions.vendor(id), queryFn: ({ signal }) => getVendor(id, signal) });
}

export function useVendor(id: number) {
  return useQuery(vendorQueryOptions(id));
}
