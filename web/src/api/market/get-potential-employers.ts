import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Employer } from './types';

/** GET /member/app/potential/employers: employers whose name matches the typed text. */
export function getPotentialEmployers(search: string, signal?: AbortSignal): Promise<Employer[]> {
  return apiRequest<Employer[]>('/member/app/potential/employers', { signal, query: { search: search.trim() || undefined } });
}

export function potentialEmployersQueryOptions(search: string) {
  return queryOptions({
    queryKey: queryKeys.employers.search(search.trim().toLowerCase()),
    queryFn: ({ signal }) => getPotentialEmployers(search, signal),
    placeholderData: keepPreviousData,
    staleTime: 10 * 60_000,
  });
}

export function usePotentialEmployers(search: string, enabled = true) {
  return useQuery({ ...potentialEmployersQueryOptions(search), enabled });
}
