import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { authKeys } from './keys';
import type { Employer } from './types';

/** GET /member/app/potential/employers?search=: employers matching the typed name. */
export function getEmployers(search: string, signal?: AbortSignal): Promise<Employer[]> {
  return apiRequest<Employer[]>('/member/app/potential/employers', { signal, query: { search: search.trim() || undefined } });
}

export function employersQueryOptions(search: string) {
  return queryOptions({
    queryKey: authKeys.employers(search.trim().toLowerCase()),
    queryFn: ({ signal }) => getEmployers(search, signal),
    placeholderData: keepPreviousData,
    staleTime: 10 * 60_000,
  });
}

export function useEmployers(search: string) {
  return useQuery(employersQueryOptions(search));
}
