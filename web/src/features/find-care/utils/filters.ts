import { sessionValue } from '@/lib/storage';
import type { FindCareFilters } from '../api/search-providers';

/** Prototype defaults (section 9): 20 miles, at most 30; three credentials. */
export const DEFAULT_DISTANCE = 20;
export const MAX_DISTANCE = 30;
export const CREDENTIALS = ['Physician Assistant', 'Doctor', 'Nurse Practitioner'];

const KEY = 'findCareFilters';

export function readFilters(): FindCareFilters {
  return sessionValue.get<FindCareFilters>(KEY) ?? { distance: DEFAULT_DISTANCE, credentials: [] };
}

export function writeFilters(filters: FindCareFilters): void {
  sessionValue.set(KEY, filters);
}
