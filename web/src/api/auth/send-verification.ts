import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { MessageResponse } from './types';

/** GET /member/app/send/verification?email: sends a new verification link ('No member found' when none). */
export function sendVerification(email: string): Promise<MessageResponse | string | null> {
  return apiRequest<MessageResponse | string | null>('/member/app/send/verification', { query: { email } });
}

export function useSendVerification() {
  return useMutation({ mutationFn: sendVerification });
}
