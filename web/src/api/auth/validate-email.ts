import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { ValidateEmailResponse } from './types';

/** POST /member/app/validate/email: whether the email is free (valid false means it is registered). */
export function validateEmail(body: { email: string; status?: 'all' }): Promise<ValidateEmailResponse> {
  return apiRequest<ValidateEmailResponse>('/member/app/validate/email', { method: 'POST', body });
}

export function useValidateEmail() {
  return useMutation({ mutationFn: validateEmail });
}
