import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { MessageResponse } from './types';

/** POST /member/app/request/magic/link: emails a one-time login link (same answer whether or not the account exists). */
export function requestMagicLink(body: { email: string }): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/member/app/request/magic/link', { method: 'POST', body });
}

export function useRequestMagicLink() {
  return useMutation({ mutationFn: requestMagicLink });
}
