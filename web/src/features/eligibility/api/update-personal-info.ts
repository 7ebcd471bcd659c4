import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { Member } from '@/lib/member';

/** PUT /member/app/personal/info: saves the member's own details; the answer is the saved member. */
export function updatePersonalInfo(body: Partial<Member>): Promise<Member> {
  return apiRequest<Member>('/member/app/personal/info', { method: 'PUT', body });
}

export function useUpdatePersonalInfo() {
  return useMutation({ mutationFn: updatePersonalInfo });
}
