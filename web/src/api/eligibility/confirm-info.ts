import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { ConfirmInfoRequest, ConfirmInfoResponse } from './types';

/** POST /member/app/confirm/info: checks the member's insurance against the roster. */
export function confirmInfo(body: ConfirmInfoRequest): Promise<ConfirmInfoResponse> {
  return apiRequest<ConfirmInfoResponse>('/member/app/confirm/info', { method: 'POST', body });
}

export function useConfirmInfo() {
  return useMutation({ mutationFn: confirmInfo });
}
