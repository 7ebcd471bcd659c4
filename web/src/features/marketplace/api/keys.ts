/** Query keys of the marketplace feature; mutations invalidate through the same factory. */
import type { Bounds, LatLng, PinFilters, SearchFilters } from './types';

export interface SearchKeyParams {
  origin: LatLng | null;
  page: number;
  filters: SearchFilters;
  employer: string | null;
  alias: string | null;
  userZipCode: string | null;
  /** A family member the search is for (their own enrolment state marks the cards); null: the caller. */
  dependentId?: number | null;
}

export const marketplaceKeys = {
  all: ['marketplace'] as const,
  search: (params: SearchKeyParams) => [...marketplaceKeys.all, 'search', params] as const,
  pins: (bounds: Bounds, filters: PinFilters) => [...marketplaceKeys.all, 'pins', bounds, filters] as const,
  areaPins: (bounds: Bounds, zoom: number, filters: PinFilters) => [...marketplaceKeys.all, 'area-pins', bounds, zoom, filters] as const,
  preview: (locationId: number) => [...marketplaceKeys.all, 'preview', locationId] as const,
  credentials: (alias: string | null) => [...marketplaceKeys.all, 'credentials', alias] as const,
  specialities: (alias: string | null) => [...marketplaceKeys.all, 'specialities', alias] as const,
  organizations: (alias: string | null, search: string) => [...marketplaceKeys.all, 'organizations', alias, search] as const,
  companyAlias: (alias: string) => [...marketplaceKeys.all, 'company-alias', alias] as const,
  employers: (search: string) => [...marketplaceKeys.all, 'employers', search] as const,
  autocomplete: (input: string) => [...marketplaceKeys.all, 'autocomplete', input] as const,
  geocode: (address: string) => [...marketplaceKeys.all, 'geocode', address] as const,
};
