import { sessionValue } from '@/lib/storage';

/**
 * The find-care filters as the filters screen keeps them (spec 2.22: distance, zip, provider name,
 * credentials as labels, provider gender, organization).
 */
export interface FindCareFilters {
  /** Miles, 10 to 30. */
  distance: number;
  /** Searched around instead of the member's home ZIP code when set (5 digits). */
  zip: string;
  providerName: string;
  credentials: string[];
  genders: ('F' | 'M')[];
  /** One group or organisation name, or '' for any. */
  organization: string;
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

export function defaultFilters(): FindCareFilters {
  return { distance: DEFAULT_DISTANCE, zip: '', providerName: '', credentials: [], genders: [], organization: '' };
}

export function readFilters(): FindCareFilters {
  // Filters kept by an older version of the screen lack the later fields.
  return { ...defaultFilters(), ...(sessionValue.get<Partial<FindCareFilters>>(KEY) ?? {}) };
}

/** ZIP code: 5 digits, optionally a dash and 4 more (spec 5); the search uses the first 5. */
export function zipError(value: string): string | null {
  const zip = value.trim();
  return !zip || /^\d{5}(-\d{4})?$/.test(zip) ? null : 'Enter a 5-digit ZIP code';
}

export function writeFilters(filters: FindCareFilters): void {
  sessionValue.set(KEY, filters);
}
