import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';

/** GET /market/credentials/provider: the credentials filter list (MD, DO, NP, ...). */
export function getCredentials(alias: string | null, signal?: AbortSignal): Promise<string[]> {
  return apiRequest<string[]>('/market/credentials/provider', { signal, query: { alias } });
}

export function credentialsQueryOptions(alias: string | null) {
  return queryOptions({
    queryKey: queryKeys.market.credentials(alias),
    queryFn: ({ signal }) => getCredentials(alias, signal),
    staleTime: 30 * 60_000,
  });
}

export function useCredentials(alias: string | null, enabled = true) {
  return useQuery({ ...credentialsQueryOptions(alias), enabled });
}
