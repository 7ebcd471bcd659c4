import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { VerifyResponse } from './types';

/** GET /member/app/verify?email: whether the account exists and its email is verified. */
export function verifyAccount(email: string, signal?: AbortSignal): Promise<VerifyResponse> {
  return apiRequest<VerifyResponse>('/member/app/verify', { signal, query: { email } });
}

export function verifyAccountQueryOptions(email: string) {
  return queryOptions({ queryKey: queryKeys.auth.verify(email), queryFn: ({ signal }) => verifyAccount(email, signal) });
}

export function useVerifyAccount(email: string | null) {
  return useQuery({ ...verifyAccountQueryOptions(email ?? ''), enabled: Boolean(email) });
}
