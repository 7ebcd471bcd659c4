import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { MessageResponse } from './types';

/** POST /member/app/request/verification: a new verification link from an expired link's token. */
export function requestVerification(body: { token: string }): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/member/app/request/verification', { method: 'POST', body });
}

export function useRequestVerification() {
  return useMutation({ mutationFn: requestVerification });
}
