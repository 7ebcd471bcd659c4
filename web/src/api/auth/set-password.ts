import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { resetPassword } from './reset-password';

/**
 * POST /member/app/set/password: a new password with a link's token in the header. Without a
 * link, POST /member/app/password/reset sets a signed-in member's first password.
 */
export function setPassword({ password, token }: { password: string; token: string | null }): Promise<unknown> {
  if (token) return apiRequest<unknown>('/member/app/set/password', { method: 'POST', body: { password }, headers: { 'x-access-token': token } });
  return resetPassword({ password });
}

export function useSetPassword() {
  return useMutation({ mutationFn: setPassword });
}
