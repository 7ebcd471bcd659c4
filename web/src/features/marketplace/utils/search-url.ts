/**
 * The marketplace search in the URL: what was searched (address and coordinates), the filters,
 * the pages and the tab, written as readable query parameters so that Back, a reload and a shared
 * or bookmarked link restore the same search. Other parameters (company, selectProvider, view)
 * pass through untouched.
 */
import type { LatLng, SearchFilters } from '@/api/market/types';
import { DEFAULT_FILTERS, MAX_DISTANCE_POSITION, withinNameLimits } from './filters';
import { INITIAL_SEARCH_STATE, type ResultTab, type SearchState } from './search-state';

/** Query parameter names, one per part of the search. */
export const SEARCH_PARAMS = {
  location: 'location',
  lat: 'lat',
  lng: 'lng',
  name: 'name',
  distance: 'distance',
  newPatients: 'newPatients',
  pediatrics: 'pediatrics',
  favorites: 'favorites',
  organisations: 'org',
  credentials: 'credential',
  specialities: 'speciality',
  genders: 'gender',
  languages: 'language',
  accessibility: 'access',
  page: 'page',
  providerPage: 'providerPage',
  tab: 'tab',
  userZipCode: 'zip',
} as const;

const SEARCH_PARAM_NAMES: string[] = Object.values(SEARCH_PARAMS);
const TABS: ResultTab[] = ['all', 'clinics', 'providers'];

/** Coordinates keep 5 decimals (about a metre): enough for a search origin, short in a link. */
const roundCoordinate = (value: number) => Math.round(value * 1e5) / 1e5;

/** A place as a link keeps it (and the search reads it back). */
export function asLinked(origin: LatLng): LatLng {
  return { lat: roundCoordinate(origin.lat), lng: roundCoordinate(origin.lng) };
}

function positiveInteger(text: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === null || !/^\d+$/.test(text)) return fallback;
  const value = Number(text);
  return value >= 1 && value <= max ? value : fallback;
}

function readOrigin(params: URLSearchParams): LatLng | null {
  const lat = Number(params.get(SEARCH_PARAMS.lat) ?? NaN);
  const lng = Number(params.get(SEARCH_PARAMS.lng) ?? NaN);
  if (!params.has(SEARCH_PARAMS.lat) || !params.has(SEARCH_PARAMS.lng)) return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}

function readDistance(params: URLSearchParams): number {
  const text = params.get(SEARCH_PARAMS.distance);
  if (text === null || !/^\d+$/.test(text)) return DEFAULT_FILTERS.searchDistance;
  const value = Number(text);
  return value <= MAX_DISTANCE_POSITION ? value : DEFAULT_FILTERS.searchDistance;
}

const flag = (params: URLSearchParams, name: string) => params.get(name) === '1';
const unique = (values: string[]) => [...new Set(values.map((value) => value.trim()).filter(Boolean))];

/** The filters a URL names; anything missing or malformed is the default. */
export function decodeFilters(params: URLSearchParams): SearchFilters {
  return {
    searchByName: withinNameLimits(params.get(SEARCH_PARAMS.name) ?? ''),
    newPatients: flag(params, SEARCH_PARAMS.newPatients),
    pediatrics: flag(params, SEARCH_PARAMS.pediatrics),
    favorites: flag(params, SEARCH_PARAMS.favorites),
    selectedGroupAndOrganizations: unique(params.getAll(SEARCH_PARAMS.organisations)),
    selectedCredentials: unique(params.getAll(SEARCH_PARAMS.credentials)),
    selectedSpecialities: unique(params.getAll(SEARCH_PARAMS.specialities)),
    selectedGenders: unique(params.getAll(SEARCH_PARAMS.genders)).filter((gender): gender is 'F' | 'M' => gender === 'F' || gender === 'M'),
    searchDistance: readDistance(params),
    selectedLanguages: unique(params.getAll(SEARCH_PARAMS.languages).map((code) => code.toLowerCase())),
    selectedAccessibility: unique(params.getAll(SEARCH_PARAMS.accessibility)),
  };
}

/** The search a URL names (`searchId` is the caller's: it is not part of a link). */
export function decodeSearchState(params: URLSearchParams): SearchState {
  const tab = params.get(SEARCH_PARAMS.tab) as ResultTab | null;
  const zip = params.get(SEARCH_PARAMS.userZipCode)?.trim();
  return {
    ...INITIAL_SEARCH_STATE,
    origin: readOrigin(params),
    address: params.get(SEARCH_PARAMS.location)?.trim() ?? '',
    filters: decodeFilters(params),
    page: positiveInteger(params.get(SEARCH_PARAMS.page), 1),
    providerPage: positiveInteger(params.get(SEARCH_PARAMS.providerPage), 1),
    tab: tab && TABS.includes(tab) ? tab : 'all',
    userZipCode: zip ? zip : null,
  };
}

/**
 * `base` with the search written over it: the search's own parameters are replaced, defaults are
 * left out (a plain search stays a short link), other parameters are kept.
 */
export function encodeSearchState(state: SearchState, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(base);
  for (const name of SEARCH_PARAM_NAMES) next.delete(name);
  const { filters } = state;
  if (state.address) next.set(SEARCH_PARAMS.location, state.address);
  if (state.origin) {
    next.set(SEARCH_PARAMS.lat, String(roundCoordinate(state.origin.lat)));
    next.set(SEARCH_PARAMS.lng, String(roundCoordinate(state.origin.lng)));
  }
  const name = filters.searchByName.trim();
  if (name) next.set(SEARCH_PARAMS.name, name);
  if (filters.searchDistance !== DEFAULT_FILTERS.searchDistance) next.set(SEARCH_PARAMS.distance, String(filters.searchDistance));
  if (filters.newPatients) next.set(SEARCH_PARAMS.newPatients, '1');
  if (filters.pediatrics) next.set(SEARCH_PARAMS.pediatrics, '1');
  if (filters.favorites) next.set(SEARCH_PARAMS.favorites, '1');
  for (const value of filters.selectedGroupAndOrganizations) next.append(SEARCH_PARAMS.organisations, value);
  for (const value of filters.selectedCredentials) next.append(SEARCH_PARAMS.credentials, value);
  for (const value of filters.selectedSpecialities) next.append(SEARCH_PARAMS.specialities, value);
  for (const value of filters.selectedGenders) next.append(SEARCH_PARAMS.genders, value);
  for (const value of filters.selectedLanguages) next.append(SEARCH_PARAMS.languages, value);
  for (const value of filters.selectedAccessibility) next.append(SEARCH_PARAMS.accessibility, value);
  if (state.page > 1) next.set(SEARCH_PARAMS.page, String(state.page));
  if (state.providerPage > 1) next.set(SEARCH_PARAMS.providerPage, String(state.providerPage));
  if (state.tab !== 'all') next.set(SEARCH_PARAMS.tab, state.tab);
  if (state.userZipCode) next.set(SEARCH_PARAMS.userZipCode, state.userZipCode);
  return next;
}

/** Whether the URL names a search at all (an address or coordinates). */
export function namesSearch(params: URLSearchParams): boolean {
  return params.has(SEARCH_PARAMS.location) || readOrigin(params) !== null;
}

/** Only the search's own parameters of a URL, as a query string (what is kept as the last search). */
export function searchQueryOnly(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const [name, value] of params) if (SEARCH_PARAM_NAMES.includes(name)) kept.append(name, value);
  return kept.toString();
}
