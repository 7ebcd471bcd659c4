import type { LatLng, SearchFilters } from '@/api/market/types';
import { DEFAULT_FILTERS } from './filters';

export type ResultTab = 'all' | 'clinics' | 'providers';

/** Everything the marketplace needs to repeat a search; kept in the URL (`search-url.ts`). */
export interface SearchState {
  origin: LatLng | null;
  /** The address text the origin came from (shown in the search box and sent with waitlists). */
  address: string;
  filters: SearchFilters;
  /** The server page of clinics (All and Clinics tabs). */
  page: number;
  /** The local page of clinicians (Providers tab). */
  providerPage: number;
  tab: ResultTab;
  /** A home zip code given on a multi-location card. */
  userZipCode: string | null;
  /** Grows with every new search (not a map move), so the map recentres only then; not in the URL. */
  searchId: number;
}

export type SearchAction =
  | { type: 'search'; origin: LatLng; address: string }
  /** The coordinates of an address searched without them (a link that names only an address). */
  | { type: 'locate'; origin: LatLng; address: string }
  | { type: 'move'; origin: LatLng; address: string }
  | { type: 'filters'; filters: SearchFilters }
  | { type: 'page'; page: number }
  | { type: 'tab'; tab: ResultTab }
  | { type: 'userZipCode'; zip: string | null };

export const INITIAL_SEARCH_STATE: SearchState = {
  origin: null,
  address: '',
  filters: DEFAULT_FILTERS,
  page: 1,
  providerPage: 1,
  tab: 'all',
  userZipCode: null,
  searchId: 0,
};

export function searchReducer(state: SearchState, action: SearchAction): SearchState {
  switch (action.type) {
    case 'search':
      return { ...state, origin: action.origin, address: action.address, page: 1, providerPage: 1, searchId: state.searchId + 1 };
    case 'locate':
      // A late answer for an address no longer searched (the member searched elsewhere) is dropped.
      return state.address === action.address && state.origin === null ? { ...state, origin: action.origin } : state;
    case 'move':
      // Moving the map keeps the filters and goes back to page 1 without recentring the map.
      return { ...state, origin: action.origin, address: action.address, page: 1, providerPage: 1 };
    case 'filters':
      return { ...state, filters: action.filters, page: 1, providerPage: 1 };
    case 'page':
      return state.tab === 'providers' ? { ...state, providerPage: action.page } : { ...state, page: action.page, providerPage: state.tab === 'all' ? action.page : state.providerPage };
    case 'tab':
      return { ...state, tab: action.tab };
    case 'userZipCode':
      return { ...state, userZipCode: action.zip, page: 1, providerPage: 1 };
  }
}
