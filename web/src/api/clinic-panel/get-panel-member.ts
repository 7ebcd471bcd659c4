import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { PanelMemberDetail } from './types';

/** GET /dpcproviders/members/{memberId}: one member as the organisation sees them. */
export function getPanelMember(memberId: number, signal?: AbortSignal): Promise<PanelMemberDetail> {
  return apiRequest<PanelMemberDetail>(`/dpcproviders/members/${memberId}`, { signal });
}

export function panelMemberQueryOptions(memberId: number) {
  return queryOptions({ queryKey: queryKeys.clinicPanel.member(memberId), queryFn: ({ signal }) => getPanelMember(memberId, signal) });
}

export function usePanelMember(memberId: number) {
  return useQuery(panelMemberQueryOptions(memberId));
}
