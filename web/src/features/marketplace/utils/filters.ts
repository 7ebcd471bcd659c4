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
  selectedLanguages: [],
  selectedAccessibility: [],
};

/** Slider positions 1..9 are 10, 15, ..., 50 miles; 0 means no slider limit. */
export function sliderMiles(position: number): number | null {
  if (position <= 0) return null;
  return 5 + 5 * Math.min(position, MAX_DISTANCE_POSITION);
}

/** What slider position 0 searches: the server's widest radius (crates/domain MAX_SEARCH_MILES). */
export const MAX_SEARCH_MILES = 100;

/** The slider's words, the same as the results summary's ("within 100 miles" at position 0). */
export function sliderLabel(position: number): string {
  return `${sliderMiles(position) ?? MAX_SEARCH_MILES} miles`;
}

/** The name filter's limits, the server's (crates/search text.rs): 100 characters, 8 words. */
export const NAME_FILTER_MAX_CHARS = 100;
export const NAME_FILTER_MAX_WORDS = 8;

/** Words as the search counts them: runs of letters and digits. */
const nameWords = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

/** Why a name filter cannot be searched, in the field's words; null when it can. */
export function nameFilterProblem(text: string): string | null {
  if (text.length > NAME_FILTER_MAX_CHARS) return `Use at most ${NAME_FILTER_MAX_CHARS} characters.`;
  if (nameWords(text).length > NAME_FILTER_MAX_WORDS) return `Use at most ${NAME_FILTER_MAX_WORDS} words.`;
  return null;
}

/** A name filter cut to what the server searches (a hand-written link may hold more). */
export function withinNameLimits(text: string): string {
  let cut = text.slice(0, NAME_FILTER_MAX_CHARS);
  const words = [...cut.matchAll(/[\p{L}\p{N}]+/gu)];
  if (words.length > NAME_FILTER_MAX_WORDS) cut = cut.slice(0, words[NAME_FILTER_MAX_WORDS - 1]!.index! + words[NAME_FILTER_MAX_WORDS - 1]![0].length);
  return cut;
}

export const GENDER_LABELS: Record<'F' | 'M', string> = { F: 'Female', M: 'Male' };

export interface FilterChip {
  key: string;
  label: string;
  /** The filters without this one. */
  without: (filters: SearchFilters) => SearchFilters;
}

type ListFilter = 'selectedCredentials' | 'selectedSpecialities' | 'selectedGroupAndOrganizations' | 'selectedLanguages' | 'selectedAccessibility';

function withoutValue<K extends ListFilter>(key: K, value: string) {
  return (filters: SearchFilters): SearchFilters => ({ ...filters, [key]: filters[key].filter((item) => item !== value) });
}

/** Names of listing codes (languages by ISO 639 code, accessibility by Plan-Net code). */
export interface CodeNames {
  language: (code: string) => string;
  accessibility: (code: string) => string;
}

const CODES_AS_THEY_ARE: CodeNames = { language: (code) => code, accessibility: (code) => code };

/** One chip per active filter, each able to remove itself. */
export function activeFilterChips(filters: SearchFilters, names: CodeNames = CODES_AS_THEY_ARE): FilterChip[] {
  const chips: FilterChip[] = [];
  const name = filters.searchByName.trim();
  if (name) chips.push({ key: 'name', label: `Name: ${name}`, without: (f) => ({ ...f, searchByName: '' }) });
  if (filters.searchDistance !== DEFAULT_DISTANCE) {
    chips.push({
      key: 'distance',
      label: `Within ${sliderMiles(filters.searchDistance) ?? MAX_SEARCH_MILES} miles`,
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
  for (const value of filters.selectedLanguages) {
    chips.push({ key: `lang:${value}`, label: `Speaks ${names.language(value)}`, without: withoutValue('selectedLanguages', value) });
  }
  for (const value of filters.selectedAccessibility) {
    chips.push({ key: `access:${value}`, label: names.accessibility(value), without: withoutValue('selectedAccessibility', value) });
  }
  for (const value of filters.selectedGenders) {
    chips.push({ key: `gender:${value}`, label: GENDER_LABELS[value], without: (f) => ({ ...f, selectedGenders: f.selectedGenders.filter((g) => g !== value) }) });
  }
  return chips;
}
