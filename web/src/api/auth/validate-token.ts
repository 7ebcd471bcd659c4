import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { ValidateTokenResponse } from './types';

/** POST /member/app/validate/token: checks a link's token; 401 means expired or used. */
export function validateToken(token: string): Promise<ValidateTokenResponse> {
  return apiRequest<ValidateTokenResponse>('/member/app/validate/token', { method: 'POST', body: { token } });
}

export function validateTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: queryKeys.auth.linkToken(token),
    queryFn: () => validateToken(token),
    // A validation consumes the link's token: never repeat it on its own.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnMount: false,
    refetchOnReconnect: false,
  });
}

export function useValidateToken(token: string | null) {
  return useQuery({ ...validateTokenQueryOptions(token ?? ''), enabled: Boolean(token) });
}
