import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { SignupRequest, SignupResponse } from './types';

/**
 * POST /member/app/signup: creates the member and sends the verification email. A provider
 * chosen before sign-up travels as the company and location query (and in the body).
 */
export function signup(request: SignupRequest): Promise<SignupResponse> {
  const query = { company: request.providerId, location: request.locationId };
  return apiRequest<SignupResponse>('/member/app/signup', { method: 'POST', body: request, query });
}

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
