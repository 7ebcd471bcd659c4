import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { providerKeys } from './keys';
import type { ClinicProfile } from './types';

/** GET /member/app/market/provider/{organisationId}?locationId=: a clinic location's profile. */
export function getClinicProfile(organisationId: number, locationId: number | null, signal?: AbortSignal): Promise<ClinicProfile> {
  return apiRequest<ClinicProfile>(`/member/app/market/provider/${organisationId}`, { signal, query: { locationId } });
}

export function clinicProfileQueryOptions(organisationId: number, locationId: number | null) {
  return queryOptions({
    queryKey: providerKeys.clinic(organisationId, locationId),
    queryFn: ({ signal }) => getClinicProfile(organisationId, locationId, signal),
  });
}

export function useClinicProfile(organisationId: number, locationId: number | null) {
  return useQuery(clinicProfileQueryOptions(organisationId, locationId));
}
