import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /member/app/set/password: the signed-in member's new password (token in the header). */
export function setPassword(body: { password: string }): Promise<unknown> {
  return apiRequest<unknown>('/member/app/set/password', { method: 'POST', body });
}

export function useSetPassword() {
  return useMutation({ mutationFn: setPassword });
}
