import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { MemberLocation, NextStep, Status } from '@/lib/member';

export interface SetProviderRequest {
  /** Null: the signed-in member; otherwise the family member enrolled by the subscriber. */
  dependentId: number | null;
  providerId: number;
  locationId: number;
  /** The member's yes to the change-provider confirmation (a pending provider is replaced). */
  change?: boolean;
}

/** The answer of the set-provider calls (docs/enrolment-contract.md). */
export interface SetProviderAnswer {
  /** 'You have been enrolled with {clinic}' or 'You now have a pending membership with {clinic}'. */
  message?: string;
  changed?: boolean;
  providerId?: number;
  locationId?: number;
  nextStep?: NextStep;
  setup?: 'incomplete' | 'complete';
  subscription?: { status: Status | null; expire?: string | null } | null;
  location?: MemberLocation | null;
}

/** POST /member/app/set/provider, or /member/app/family/member/{id}/set/provider for a family member. */
export function setProvider({ dependentId, providerId, locationId, change }: SetProviderRequest): Promise<SetProviderAnswer> {
  const path = dependentId === null ? '/member/app/set/provider' : `/member/app/family/member/${dependentId}/set/provider`;
  return apiRequest<SetProviderAnswer>(path, { method: 'POST', body: change ? { providerId, locationId, change: true } : { providerId, locationId } });
}

/** Enrols; the member (and the menu, Home and the cards) and the family are loaded again whatever the answer. */
export function useSetProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setProvider,
    // Settles once the member is loaded again: the next step reads the new enrolment.
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.member.all }), queryClient.invalidateQueries({ queryKey: queryKeys.family.all })]),
  });
}
