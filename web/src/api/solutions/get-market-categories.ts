import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { MarketCategory } from './types';

/** GET /member/app/market: the marketplace categories with their solutions and vendors. */
export function getMarketCategories(signal?: AbortSignal): Promise<{ categories: MarketCategory[] }> {
  return apiRequest<{ categories: MarketCategory[] }>('/member/app/market', { signal });
}

export function marketCategoriesQueryOptions() {
  return queryOptions({
    queryKey: queryKeys.solutions.categories(),
    queryFn: ({ signal }) => getMarketCategories(signal),
    staleTime: 10 * 60_000,
  });
}

export function useMarketCategories() {
  return useQuery(marketCategoriesQueryOptions());
}
