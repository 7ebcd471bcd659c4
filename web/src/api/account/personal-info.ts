import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Member } from '@/lib/member';

/** PUT /member/app/personal/info: saves the member's own details (the whole member object); the answer is the saved member. */
export function updatePersonalInfo(body: Partial<Member>): Promise<Member> {
  return apiRequest<Member>('/member/app/personal/info', { method: 'PUT', body });
}

export function useUpdatePersonalInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePersonalInfo,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.member.all }),
  });
}
