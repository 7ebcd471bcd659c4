import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';

/**
 * GET /member/app/confirm/account: confirms the account (or a changed email) for the link's
 * token, which travels in x-access-token in place of the session's (and as the token query).
 */
export function confirmAccount(token: string | null): Promise<{ verified?: boolean; message?: string; email?: string }> {
  return apiRequest('/member/app/confirm/account', { query: { token }, headers: token ? { 'x-access-token': token } : undefined });
}

export function confirmAccountQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: queryKeys.auth.confirmAccount(token),
    queryFn: () => confirmAccount(token),
    staleTime: Infinity,
    retry: false,
  });
}

export function useConfirmAccount(token: string | null) {
  return useQuery(confirmAccountQueryOptions(token));
}
