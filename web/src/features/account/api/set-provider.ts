import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { memberKeys } from '@/lib/member';
import { accountKeys } from './keys';

/** POST /member/app/set/provider, or .../family/member/{id}/set/provider for a family member. */
export function setProvider({ memberId, providerId, locationId }: { memberId: number | null; providerId: number; locationId: number }): Promise<unknown> {
  const path = memberId === null ? '/member/app/set/provider' : `/member/app/family/member/${memberId}/set/provider`;
  return apiRequest(path, { method: 'POST', body: { providerId, locationId } });
}

export function useSetProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProvider,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: memberKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
  });
}
