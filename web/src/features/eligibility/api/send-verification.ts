import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET /member/app/send/verification?email: emails a new verification link. */
export function sendVerification(email: string): Promise<unknown> {
  return apiRequest<unknown>('/member/app/send/verification', { query: { email } });
}

export function useSendVerification() {
  return useMutation({ mutationFn: sendVerification });
}
