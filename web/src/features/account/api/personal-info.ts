import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { memberKeys, type Member } from '@/lib/member';

/** PUT /member/app/personal/info: saves the member's own details; the answer replaces the member. */
export function updatePersonalInfo(body: Partial<Member>): Promise<Member> {
  return apiRequest<Member>('/member/app/personal/info', { method: 'PUT', body });
}

export function useUpdatePersonalInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePersonalInfo,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}
