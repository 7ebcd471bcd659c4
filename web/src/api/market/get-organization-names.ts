import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';

/** How many organisation names the checklist asks for at most. */
export const ORGANIZATION_LIST_LIMIT = 500;

/**
 * GET /market/organization/company/name: group and organisation names, largest first. With a
 * company alias the list holds only that employer's network.
 */
export function getOrganizationNames(alias: string | null, search: string, signal?: AbortSignal): Promise<string[]> {
  return apiRequest<string[]>('/market/organization/company/name', {
    signal,
    query: { alias, search: search.trim() || undefined, limit: ORGANIZATION_LIST_LIMIT },
  });
}

export function organizationNamesQueryOptions(alias: string | null, search: string) {
  return queryOptions({
    queryKey: queryKeys.market.organizations(alias, search.trim()),
    queryFn: ({ signal }) => getOrganizationNames(alias, search, signal),
    placeholderData: keepPreviousData,
    staleTime: 30 * 60_000,
  });
}

export function useOrganizationNames(alias: string | null, search: string, enabled = true) {
  return useQuery({ ...organizationNamesQueryOptions(alias, search), enabled });
}
