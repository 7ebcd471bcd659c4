import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';

/** GET /market/specialities: the specialities filter list. */
export function getSpecialities(alias: string | null, signal?: AbortSignal): Promise<string[]> {
  return apiRequest<string[]>('/market/specialities', { signal, query: { alias } });
}

export function specialitiesQueryOptions(alias: string | null) {
  return queryOptions({
    queryKey: queryKeys.market.specialities(alias),
    queryFn: ({ signal }) => getSpecialities(alias, signal),
    staleTime: 30 * 60_000,
  });
}

export function useSpecialities(alias: string | null, enabled = true) {
  return useQuery({ ...specialitiesQueryOptions(alias), enabled });
}
