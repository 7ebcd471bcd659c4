import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { LoginResponse } from './types';

/** POST /member/app/login/magic/link: trades the link's one-time token for an access token; 403 when expired. */
export function loginWithMagicLink(body: { token: string; email?: string }): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/member/app/login/magic/link', { method: 'POST', body });
}

export function useLoginWithMagicLink() {
  return useMutation({ mutationFn: loginWithMagicLink });
}
