import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { PanelDecisionAnswer } from './types';

/** What a clinic decides about a member. */
export type MembershipDecision =
  | { memberId: number; decision: 'activate'; firstVisit: string }
  | { memberId: number; decision: 'decline'; reason: string }
  | { memberId: number; decision: 'end'; reason: string; endDate: string };

/** POST /dpcproviders/members/{memberId}/activate | decline | end. */
export function decideMembership(request: MembershipDecision): Promise<PanelDecisionAnswer> {
  const { memberId, decision, ...body } = request;
  return apiRequest<PanelDecisionAnswer>(`/dpcproviders/members/${memberId}/${decision}`, { method: 'POST', body });
}

/** A decision; every tab and the member's detail are read again afterwards (counts move between tabs). */
export function useDecideMembership() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideMembership,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.clinicPanel.all }),
  });
}
