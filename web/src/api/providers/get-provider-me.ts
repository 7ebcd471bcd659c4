import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { ProviderMe } from './types';

/** GET /dpcproviders/me: the signed-in provider and their organisation. */
export function getProviderMe(signal?: AbortSignal): Promise<ProviderMe> {
  return apiRequest<ProviderMe>('/dpcproviders/me', { signal });
}

export function providerMeQueryOptions() {
  return queryOptions({ queryKey: queryKeys.providers.me(), queryFn: ({ signal }) => getProviderMe(signal), staleTime: 5 * 60_000 });
}

export function useProviderMe(enabled = true) {
  return useQuery({ ...providerMeQueryOptions(), enabled });
}
