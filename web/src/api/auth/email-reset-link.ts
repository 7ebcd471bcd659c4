import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET /member/app/reset/password?email=: sends a reset link; the answer's text is shown in a snackbar. */
export function emailResetLink(email: string): Promise<unknown> {
  return apiRequest<unknown>('/member/app/reset/password', { query: { email } });
}

export function useEmailResetLink() {
  return useMutation({ mutationFn: emailResetLink });
}
