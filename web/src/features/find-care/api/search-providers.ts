/** The find-care search: a ZIP code geocoded, then the marketplace search around it (6 per page). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export interface FindCareFilters {
  /** Miles, 10 to 30. */
  distance: number;
  credentials: string[];
}

export interface CareProvider {
  id: number;
  locationId: number;
  name: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  logo: string;
  distance: number | null;
  newPatients: boolean;
  entity: string;
}

interface GeocodeAnswer {
  results: { geometry: { location: { lat: number; lng: number } }; formatted_address: string }[];
}

/** The marketplace slider positions 1..9 are 10, 15, ... 50 miles. */
export function sliderPosition(miles: number): number {
  return Math.max(1, Math.min(9, Math.round((miles - 10) / 5) + 1));
}

export async function searchProviders(zip: string, filters: FindCareFilters, company: string | null, signal?: AbortSignal): Promise<CareProvider[]> {
  const geocode = await apiRequest<GeocodeAnswer>('/member/app/market/locations/geocode', { method: 'POST', body: { address: zip }, signal });
  const origin = geocode.results[0]?.geometry.location;
  if (!origin) return [];
  const answer = await apiRequest<{ clinics: CareProvider[] }>('/member/app/market/search', {
    method: 'POST',
    signal,
    query: { page: 1, limit: 6, lat: origin.lat, lng: origin.lng, company, userZipCode: zip },
    body: {
      search: {
        filters: {
          searchByName: '',
          newPatients: false,
          pediatrics: false,
          selectedCredentials: filters.credentials,
          selectedSpecialities: [],
          selectedGenders: [],
          selectedGroupAndOrganizations: [],
          searchDistance: sliderPosition(filters.distance),
        },
      },
    },
  });
  return answer.clinics ?? [];
}

export function useProviderSearch(zip: string, filters: FindCareFilters, company: string | null) {
  return useQuery({
    ...queryOptions({
      queryKey: ['find-care', 'search', zip, filters, company] as const,
      queryFn: ({ signal }) => searchProviders(zip, filters, company, signal),
    }),
    enabled: /^\d{5}$/.test(zip),
  });
}
