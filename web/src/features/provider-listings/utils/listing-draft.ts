/**
 * A listing being edited: the form's draft of a location or clinician, and the patch that sends
 * only what changed (`PATCH /dpcproviders/locations/{id}` and `/clinicians/{id}` take only the
 * fields that change; docs/listings-contract.md).
 */
import type { OpeningRange, WeeklyHours } from '@/api/market/profile-types';
import type { ClinicianListing, ClinicianPatch, LocationListing, LocationPatch } from '@/api/listings/types';

export const DAYS: (keyof WeeklyHours)[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** The pediatric care service: pediatric ages go with it. */
export const PEDIATRIC_SERVICE = 'BH';

/** A location's form: text fields as typed, the rest as the listing holds them. */
export interface LocationDraft {
  acceptingNewPatients: boolean;
  /** Empty: no limit. */
  panelCapacity: string;
  phone: string;
  website: string;
  /** Null: the clinic gives no hours. */
  hours: WeeklyHours | null;
  timeZone: string;
  languages: string[];
  accessibility: string[];
  telehealth: boolean;
  services: string[];
  pediatricMin: string;
  pediatricMax: string;
}

export function emptyWeek(): WeeklyHours {
  return { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
}

export function locationDraft(location: LocationListing): LocationDraft {
  return {
    acceptingNewPatients: location.acceptingNewPatients,
    panelCapacity: location.panelCapacity === null ? '' : String(location.panelCapacity),
    phone: location.phone,
    website: location.website,
    hours: location.hours,
    timeZone: location.timeZone,
    languages: location.languages,
    accessibility: location.accessibility,
    telehealth: location.telehealth,
    services: location.services,
    pediatricMin: location.pediatricAges ? String(location.pediatricAges.min) : '',
    pediatricMax: location.pediatricAges ? String(location.pediatricAges.max) : '',
  };
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
const sameHours = (a: WeeklyHours | null, b: WeeklyHours | null) => JSON.stringify(a) === JSON.stringify(b);

/** A whole number typed in a field, or the text itself when it is not one (the server names it). */
function wholeNumber(text: string): number | string {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The hours as the server keeps them: each day's ranges in order. */
export function sortedHours(hours: WeeklyHours | null): WeeklyHours | null {
  if (!hours) return hours;
  const sorted = emptyWeek();
  for (const day of DAYS) sorted[day] = [...hours[day]].sort((a, b) => a.opens.localeCompare(b.opens));
  return sorted;
}

/** The fields of `draft` that differ from `location`; empty when nothing changed. */
export function locationPatch(location: LocationListing, draft: LocationDraft): LocationPatch {
  const patch: Record<string, unknown> = {};
  if (draft.acceptingNewPatients !== location.acceptingNewPatients) patch.acceptingNewPatients = draft.acceptingNewPatients;
  const capacity = draft.panelCapacity.trim() === '' ? null : wholeNumber(draft.panelCapacity);
  if (capacity !== location.panelCapacity) patch.panelCapacity = capacity;
  if (draft.phone.trim() !== location.phone) patch.phone = draft.phone.trim();
  if (draft.website.trim() !== location.website) patch.website = draft.website.trim();
  const hours = sortedHours(draft.hours);
  if (!sameHours(hours, location.hours)) patch.hours = hours;
  if (draft.timeZone !== location.timeZone) patch.timeZone = draft.timeZone;
  if (!sameSet(draft.languages, location.languages)) patch.languages = draft.languages;
  if (!sameSet(draft.accessibility, location.accessibility)) patch.accessibility = draft.accessibility;
  if (draft.telehealth !== location.telehealth) patch.telehealth = draft.telehealth;
  if (!sameSet(draft.services, location.services)) patch.services = draft.services;
  const pediatric = draft.services.includes(PEDIATRIC_SERVICE);
  const ages =
    pediatric && (draft.pediatricMin.trim() !== '' || draft.pediatricMax.trim() !== '')
      ? { min: wholeNumber(draft.pediatricMin), max: wholeNumber(draft.pediatricMax) }
      : null;
  const currentAges = location.pediatricAges;
  const agesChanged = ages === null ? currentAges !== null : currentAges === null || ages.min !== currentAges.min || ages.max !== currentAges.max;
  if (agesChanged) patch.pediatricAges = ages;
  return patch as LocationPatch;
}

/** A clinician's form. */
export interface ClinicianDraft {
  acceptingNewPatients: boolean;
  languages: string[];
  telehealth: boolean;
  locationIds: number[];
}

export function clinicianDraft(clinician: ClinicianListing): ClinicianDraft {
  return {
    acceptingNewPatients: clinician.acceptingNewPatients,
    languages: clinician.languages,
    telehealth: clinician.telehealth,
    locationIds: clinician.locationIds,
  };
}

export function clinicianPatch(clinician: ClinicianListing, draft: ClinicianDraft): ClinicianPatch {
  const patch: ClinicianPatch = {};
  if (draft.acceptingNewPatients !== clinician.acceptingNewPatients) patch.acceptingNewPatients = draft.acceptingNewPatients;
  if (!sameSet(draft.languages, clinician.languages)) patch.languages = draft.languages;
  if (draft.telehealth !== clinician.telehealth) patch.telehealth = draft.telehealth;
  if (!sameSet(draft.locationIds.map(String), clinician.locationIds.map(String))) patch.locationIds = draft.locationIds;
  return patch;
}

/** A day's ranges with one more: after the last one, or 09:00-17:00 on a closed day. */
export function withAnotherRange(ranges: OpeningRange[]): OpeningRange[] {
  const last = ranges[ranges.length - 1];
  if (!last) return [{ opens: '09:00', closes: '17:00' }];
  const [hours] = last.closes.split(':').map(Number);
  const opens = Math.min((hours ?? 17) + 1, 23);
  return [...ranges, { opens: `${String(opens).padStart(2, '0')}:00`, closes: `${String(Math.min(opens + 2, 24)).padStart(2, '0')}:00` }];
}
