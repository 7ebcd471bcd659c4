import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { ProviderSolutions } from './types';

/** GET /member/app/solutions: the organisation's solutions, its favourites and the whole marketplace. */
export function getProviderSolutions(signal?: AbortSignal): Promise<ProviderSolutions> {
  return apiRequest<ProviderSolutions>('/member/app/solutions', { signal });
}

export function providerSolutionsQueryOptions() {
  return queryOptions({ queryKey: queryKeys.solutions.providerCards(), queryFn: ({ signal }) => getProviderSolutions(signal) });
}

export function useProviderSolutions() {
  return useQuery(providerSolutionsQueryOptions());
}
