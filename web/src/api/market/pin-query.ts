import { searchFiltersBody } from './search-filters-body';
import type { Bounds, PinFilters } from './types';

/**
 * The query of the pin calls (pins and area pins): the box, and the search's whole question in
 * the form the search call uses: `filters` is the JSON of its `search.filters`, `lat`, `lng`,
 * `company` and `userZipCode` its query. `newPatients`, `serviceTypes`, `employer` and `alias`
 * repeat what servers that read only those already honour.
 */
export function pinQuery(bounds: Bounds, pinFilters: PinFilters) {
  const { filters, employer, alias, origin, userZipCode } = pinFilters;
  return {
    ...bounds,
    filters: JSON.stringify(searchFiltersBody(filters, employer, userZipCode)),
    lat: origin?.lat,
    lng: origin?.lng,
    company: alias,
    userZipCode,
    newPatients: filters.newPatients ? true : undefined,
    serviceTypes: filters.pediatrics ? 'BH' : undefined,
    employer,
    alias,
  };
}
