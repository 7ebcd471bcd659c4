import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { authKeys } from './keys';

/**
 * GET /member/app/confirm/account: confirms the account (or a changed email) for the link's
 * token. The spec sends the token in the header; it is also given as the token query so the
 * signed-in session's own token can travel in x-access-token.
 */
export function confirmAccount(token: string | null): Promise<unknown> {
  return apiRequest<unknown>('/member/app/confirm/account', { query: { token } });
}

export function confirmAccountQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: [...authKeys.all, 'confirm', token] as const,
    queryFn: () => confirmAccount(token),
    staleTime: Infinity,
    retry: false,
  });
}

export function useConfirmAccount(token: string | null) {
  return useQuery(confirmAccountQueryOptions(token));
}
