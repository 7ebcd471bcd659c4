import type { SearchFilters } from './types';

/** `search.filters` as the search call sends it; the pin calls send the same object. */
export type SearchFiltersBody = ReturnType<typeof searchFiltersBody>;

/**
 * The filter drawer's values as the server reads them (`search.filters` of POST
 * /member/app/market/search, and the `filters` query parameter of the pin calls), so the list and
 * the map are asked the same question.
 */
export function searchFiltersBody(filters: SearchFilters, employer: string | null, userZipCode: string | null) {
  return {
    searchByName: filters.searchByName.trim() || undefined,
    newPatients: filters.newPatients,
    pediatrics: filters.pediatrics,
    selectedCredentials: filters.selectedCredentials,
    selectedSpecialities: filters.selectedSpecialities,
    selectedGenders: filters.selectedGenders,
    selectedGroupAndOrganizations: filters.selectedGroupAndOrganizations,
    selectedLanguages: filters.selectedLanguages,
    selectedAccessibility: filters.selectedAccessibility,
    searchDistance: filters.searchDistance,
    serviceTypes: filters.pediatrics ? ['BH'] : [],
    employer: employer ?? undefined,
    userZipCode: userZipCode ?? undefined,
    // Signed in only: keeps the member's favourite clinics and clinicians.
    favorites: filters.favorites ? true : undefined,
  };
}
