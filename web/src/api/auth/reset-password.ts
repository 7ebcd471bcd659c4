import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { MessageResponse } from './types';

/**
 * POST /member/app/password/reset: sets the password with the token from validate/token (or,
 * in account settings, sets a first password for the signed-in member). 403: something wrong.
 */
export function resetPassword(body: { password: string; token?: string }): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/member/app/password/reset', { method: 'POST', body });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
