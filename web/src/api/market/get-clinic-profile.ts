import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { ClinicProfile } from './profile-types';

/**
 * GET /member/app/market/provider/{organisationId}?locationId=: a clinic location's profile; for a
 * selected family member, /member/app/family/member/{dependentId}/market/provider/{id}.
 */
export function getClinicProfile(organisationId: number, locationId: number | null, dependentId: number | null = null, signal?: AbortSignal): Promise<ClinicProfile> {
  const path = dependentId ? `/member/app/family/member/${dependentId}/market/provider/${organisationId}` : `/member/app/market/provider/${organisationId}`;
  return apiRequest<ClinicProfile>(path, { signal, query: { locationId } });
}

export function clinicProfileQueryOptions(organisationId: number, locationId: number | null, dependentId: number | null = null) {
  return queryOptions({
    queryKey: queryKeys.profiles.clinic(organisationId, locationId, dependentId),
    queryFn: ({ signal }) => getClinicProfile(organisationId, locationId, dependentId, signal),
  });
}

/** The profile, once there is an organisation to ask for (the eligibility card waits for the member's). */
export function useClinicProfile(organisationId: number | null, locationId: number | null, dependentId: number | null = null) {
  return useQuery({ ...clinicProfileQueryOptions(organisationId ?? 0, locationId, dependentId), enabled: organisationId !== null && organisationId > 0 });
}
