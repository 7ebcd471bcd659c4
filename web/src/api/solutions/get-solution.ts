import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Solution } from './types';

/** GET /dpcproviders/market/solution/{id}: a marketplace solution. */
export function getSolution(id: number, signal?: AbortSignal): Promise<Solution> {
  return apiRequest<Solution>(`/dpcproviders/market/solution/${id}`, { signal });
}

export function solutionQueryOptions(id: number) {
  return queryOptions({ queryKey: queryKeys.solutions.solution(id), queryFn: ({ signal }) => getSolution(id, signal) });
}

export function useSolution(id: number) {
  return useQuery(solutionQueryOptions(id));
}
