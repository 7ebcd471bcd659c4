import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { memberKeys } from '@/lib/member';

/**
 * POST /member/app/set/provider, or the family member's /member/app/family/member/{id}/set/provider.
 * Find Care asks "Change provider?" first, so the call carries the member's yes (`change: true`).
 */
export function setProvider({ dependentId, providerId, locationId }: { dependentId: number | null; providerId: number; locationId: number }): Promise<unknown> {
  const path = dependentId === null ? '/member/app/set/provider' : `/member/app/family/member/${dependentId}/set/provider`;
  return apiRequest(path, { method: 'POST', body: { providerId, locationId, change: true } });
}

export function useSetProvider() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setProvider, onSettled: () => void queryClient.invalidateQueries({ queryKey: memberKeys.all }) });
}
