import { sessionValue } from '@/lib/storage';

/** The find-care filters as the filters screen keeps them (credential labels, not codes). */
export interface FindCareFilters {
  /** Miles, 10 to 30. */
  distance: number;
  credentials: string[];
}

/** Prototype defaults (section 9): 20 miles, at most 30. */
export const DEFAULT_DISTANCE = 20;
export const MAX_DISTANCE = 30;

/**
 * The prototype's three credentials and the catalogue codes each stands for (the search matches
 * clinicians by code: MD and DO are physicians, NP, FNP and APRN nurse practitioners).
 */
const CREDENTIAL_CODES: Record<string, string[]> = {
  'Physician Assistant': ['PA'],
  Doctor: ['MD', 'DO'],
  'Nurse Practitioner': ['NP', 'FNP', 'APRN'],
};

export const CREDENTIALS = Object.keys(CREDENTIAL_CODES);

/** The catalogue codes the search is sent for the chosen credential labels. */
export function credentialCodes(labels: string[]): string[] {
  return labels.flatMap((label) => CREDENTIAL_CODES[label] ?? []);
}

const KEY = 'findCareFilters';

export function readFilters(): FindCareFilters {
  return sessionValue.get<FindCareFilters>(KEY) ?? { distance: DEFAULT_DISTANCE, credentials: [] };
}

export function writeFilters(filters: FindCareFilters): void {
  sessionValue.set(KEY, filters);
}
