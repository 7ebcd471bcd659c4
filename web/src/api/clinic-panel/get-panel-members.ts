import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { PanelPage, PanelParams } from './types';

/** GET /dpcproviders/members: one tab of the organisation's members, newest first. */
export function getPanelMembers(params: PanelParams, signal?: AbortSignal): Promise<PanelPage> {
  return apiRequest<PanelPage>('/dpcproviders/members', {
    signal,
    query: { status: params.status, location: params.location, q: params.q.trim(), page: params.page },
  });
}

export function panelMembersQueryOptions(params: PanelParams) {
  return queryOptions({ queryKey: queryKeys.clinicPanel.members(params), queryFn: ({ signal }) => getPanelMembers(params, signal) });
}

/** The tab; while the next page or search loads, the previous answer stays on screen. */
export function usePanelMembers(params: PanelParams) {
  return useQuery({ ...panelMembersQueryOptions(params), placeholderData: keepPreviousData });
}
