/** The find-care search: a ZIP code geocoded, then one page of the marketplace search around it. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { geocode } from '@/api/market/geocode';
import { searchMarket } from '@/api/market/search-market';
import type { MarketItem } from '@/api/market/types';
import { queryKeys } from '@/api/query-keys';
import { credentialCodes, type FindCareFilters } from './filters';

/** The marketplace slider positions 1..9 are 10, 15, ... 50 miles. */
export function sliderPosition(miles: number): number {
  return Math.max(1, Math.min(9, Math.round((miles - 10) / 5) + 1));
}

export async function searchNearZip(zip: string, filters: FindCareFilters, company: string | null, signal?: AbortSignal): Promise<MarketItem[]> {
  const geocoded = await geocode({ address: zip }, signal);
  const origin = geocoded.results[0]?.geometry.location;
  if (!origin) return [];
  const answer = await searchMarket(
    {
      origin,
      page: 1,
      filters: {
        searchByName: filters.providerName.trim(),
        newPatients: false,
        pediatrics: false,
        selectedCredentials: credentialCodes(filters.credentials),
        selectedSpecialities: [],
        selectedGenders: filters.genders,
        selectedGroupAndOrganizations: filters.organization ? [filters.organization] : [],
        searchDistance: sliderPosition(filters.distance),
        favorites: false,
        selectedLanguages: [],
        selectedAccessibility: [],
      },
      employer: null,
      alias: company,
      userZipCode: zip,
    },
    signal,
  );
  return answer.clinics ?? [];
}

export function useProviderSearch(zip: string, filters: FindCareFilters, company: string | null) {
  return useQuery({
    ...queryOptions({
      queryKey: queryKeys.market.nearZip(zip, filters, company),
      queryFn: ({ signal }) => searchNearZip(zip, filters, company, signal),
    }),
    enabled: /^\d{5}$/.test(zip),
  });
}
