import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { RateCalculation } from './types';

/** POST /dpcproviders/rate/calculate: the monthly and yearly base rate, fees and total of one rate. */
export function calculateRate(solutionId: number, rateId: string | number, signal?: AbortSignal): Promise<RateCalculation> {
  return apiRequest<RateCalculation>('/dpcproviders/rate/calculate', { method: 'POST', body: { solution: solutionId, rate: rateId }, signal });
}

/** A calculation changes only with the solution's fees, so it is cached like a read. */
export function rateCalculationQueryOptions(solutionId: number, rateId: string | number) {
  return queryOptions({
    queryKey: queryKeys.solutions.calculation(solutionId, rateId),
    queryFn: ({ signal }) => calculateRate(solutionId, rateId, signal),
    staleTime: 5 * 60_000,
  });
}

/** The calculation of the chosen rate; waits while none is chosen. */
export function useRateCalculation(solutionId: number, rateId: string | number | null) {
  return useQuery({ ...rateCalculationQueryOptions(solutionId, rateId ?? ''), enabled: rateId !== null });
}
