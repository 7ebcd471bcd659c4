import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { MessageResponse } from './types';

/** POST /member/app/request/password/reset: emails a reset link (same answer whether or not the account exists). */
export function requestPasswordReset(body: { email: string }): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/member/app/request/password/reset', { method: 'POST', body });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
