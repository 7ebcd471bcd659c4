import type { SearchFilters } from '@/api/market/types';

/** The slider's starting position (30 miles). */
export const DEFAULT_DISTANCE = 5;
export const MAX_DISTANCE_POSITION = 9;

export const DEFAULT_FILTERS: SearchFilters = {
  searchByName: '',
  newPatients: false,
  pediatrics: false,
  selectedCredentials: [],
  selectedSpecialities: [],
  selectedGenders: [],
  selectedGroupAndOrganizations: [],
  searchDistance: DEFAULT_DISTANCE,
  favorites: false,
};

/** Slider positions 1..9 are 10, 15, ..., 50 miles; 0 means no slider limit. */
export function sliderMiles(position: number): number | null {
  if (position <= 0) return null;
  return 5 + 5 * Math.min(position, MAX_DISTANCE_POSITION);
}

export function sliderLabel(position: number): string {
  const miles = sliderMiles(position);
  return miles === null ? 'Any distance' : `${miles} miles`;
}

export const GENDER_LABELS: Record<'F' | 'M', string> = { F: 'Female', M: 'Male' };

export interface FilterChip {
  key: string;
  label: string;
  /** The filters without this one. */
  without: (filters: SearchFilters) => SearchFilters;
}

function withoutValue<K extends 'selectedCredentials' | 'selectedSpecialities' | 'selectedGroupAndOrganizations'>(key: K, value: string) {
  return (filters: SearchFilters): SearchFilters => ({ ...filters, [key]: filters[key].filter((item) => item !== value) });
}

/** One chip per active filter, each able to remove itself. */
export function activeFilterChips(filters: SearchFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  const name = filters.searchByName.trim();
  if (name) chips.push({ key: 'name', label: `Name: ${name}`, without: (f) => ({ ...f, searchByName: '' }) });
  if (filters.searchDistance !== DEFAULT_DISTANCE) {
    chips.push({
      key: 'distance',
      label: filters.searchDistance === 0 ? 'Any distance' : `Within ${sliderMiles(filters.searchDistance)} miles`,
      without: (f) => ({ ...f, searchDistance: DEFAULT_DISTANCE }),
    });
  }
  if (filters.newPatients) chips.push({ key: 'newPatients', label: 'Accepting new patients', without: (f) => ({ ...f, newPatients: false }) });
  if (filters.pediatrics) chips.push({ key: 'pediatrics', label: 'Pediatrics', without: (f) => ({ ...f, pediatrics: false }) });
  if (filters.favorites) chips.push({ key: 'favorites', label: 'Favorites', without: (f) => ({ ...f, favorites: false }) });
  for (const value of filters.selectedGroupAndOrganizations) {
    chips.push({ key: `org:${value}`, label: value, without: withoutValue('selectedGroupAndOrganizations', value) });
  }
  for (const value of filters.selectedCredentials) {
    chips.push({ key: `cred:${value}`, label: value, without: withoutValue('selectedCredentials', value) });
  }
  for (const value of filters.selectedSpecialities) {
    chips.push({ key: `spec:${value}`, label: value, without: withoutValue('selectedSpecialities', value) });
  }
  for (const value of filters.selectedGenders) {
    chips.push({ key: `gender:${value}`, label: GENDER_LABELS[value], without: (f) => ({ ...f, selectedGenders: f.selectedGenders.filter((g) => g !== value) }) });
  }
  return chips;
}

export function toggleValue<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}
