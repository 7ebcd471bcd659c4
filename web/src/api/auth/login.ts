import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { LoginResponse } from './types';

/** POST /member/app/login: email and password for an access token and the member's next step. */
export function login(body: { email: string; password: string }): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/member/app/login', { method: 'POST', body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
