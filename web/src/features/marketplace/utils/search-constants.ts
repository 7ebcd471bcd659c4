/** Marketplace constants from the spec (section 9). */

import { SEARCH_PAGE_SIZE } from '@/api/market/search-market';

/** Cards per page, for the server pages and the local clinician pages alike. */
export const PAGE_SIZE = SEARCH_PAGE_SIZE;
/** Map zoom after a search. */
export const SEARCH_ZOOM = 12;
/** Below this zoom the map shows area pins (clusters) instead of single pins. */
export const MIN_PIN_ZOOM = 9;
/** The Update Search button appears this long after the map stops moving. */
export const UPDATE_SEARCH_DELAY_MS = 500;
/** The email field is trimmed and lowercased after this typing pause. */
export const EMAIL_DEBOUNCE_MS = 500;
/** With 1 to this many result pages, the 'Find more providers' hint shows. */
export const FIND_MORE_MAX_PAGES = 3;
/**
 * The contiguous United States, shown until a search gives a location (the spec's 0,0 default
 * centre would show the Gulf of Guinea; the market is US-only).
 */
export const US_BOUNDS: [[number, number], [number, number]] = [
  [24.4, -124.8],
  [49.4, -66.9],
];
export const US_ZOOM = 4;
