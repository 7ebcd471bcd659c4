import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Clinician } from './profile-types';
import type { LatLng } from './types';

/** GET /member/app/market/doctor/{id}: a clinician, with distances from `origin` when given. */
export function getClinician(clinicianId: number, origin: LatLng | null, signal?: AbortSignal): Promise<Clinician> {
  return apiRequest<Clinician>(`/member/app/market/doctor/${clinicianId}`, { signal, query: { lat: origin?.lat, lng: origin?.lng } });
}

export function clinicianQueryOptions(clinicianId: number, origin: LatLng | null) {
  return queryOptions({
    queryKey: queryKeys.profiles.clinician(clinicianId, origin),
    queryFn: ({ signal }) => getClinician(clinicianId, origin, signal),
  });
}

export function useClinician(clinicianId: number, origin: LatLng | null) {
  return useQuery(clinicianQueryOptions(clinicianId, origin));
}
