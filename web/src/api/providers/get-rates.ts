import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { Rate } from '@/api/solutions/types';

/** GET /dpcproviders/rates[?solution=ID]: every rate (of one solution), by solution then base rate. */
export function getRates(solutionId: number | null, signal?: AbortSignal): Promise<Rate[]> {
  return apiRequest<Rate[]>('/dpcproviders/rates', { signal, query: { solution: solutionId } });
}

export function ratesQueryOptions(solutionId: number | null) {
  return queryOptions({ queryKey: queryKeys.solutions.rates(solutionId), queryFn: ({ signal }) => getRates(solutionId, signal), staleTime: 5 * 60_000 });
}

export function useRates(solutionId: number | null, enabled = true) {
  return useQuery({ ...ratesQueryOptions(solutionId), enabled });
}
