/** Shapes of the listing calls (docs/listings-contract.md). */
import type { WeeklyHours } from '@/api/market/profile-types';

export interface LanguageName {
  code: string;
  name: string;
}

/** Every code a listing may hold, with what people read (GET /market/listing-codes). */
export interface ListingCodes {
  languages: LanguageName[];
  accessibility: { code: string; label: string }[];
  services: { code: string; label: string }[];
  timeZones: { name: string; label: string }[];
  weekdays: { code: keyof WeeklyHours; name: string }[];
}

/** A location of the provider's organisation, as the provider edits it. */
export interface LocationListing {
  id: number;
  name: string;
  locationName: string;
  address1: string;
  city: string;
  state: string;
  zipCode: string;
  isVirtualLocation: boolean;
  acceptingNewPatients: boolean;
  /** Members the location takes at most; null for no limit. */
  panelCapacity: number | null;
  /** Pending and active members; full while closed because the panel is full. */
  panel: { members: number; full: boolean };
  phone: string;
  website: string;
  hours: WeeklyHours | null;
  timeZone: string;
  languages: string[];
  accessibility: string[];
  telehealth: boolean;
  services: string[];
  pediatricAges: { min: number; max: number } | null;
  lastVerified: string | null;
  /** Unconfirmed for more than 90 days. */
  due: boolean;
}

export interface ClinicianListing {
  id: number;
  name: string;
  credentials: string;
  npi: string;
  acceptingNewPatients: boolean;
  languages: string[];
  telehealth: boolean;
  /** The organisation's locations the clinician works at. */
  locationIds: number[];
  lastVerified: string | null;
  due: boolean;
}

export interface Listings {
  organisation: { id: number; name: string };
  due: boolean;
  locations: LocationListing[];
  clinicians: ClinicianListing[];
}

/** The fields a location patch may send (only those that change). */
export type LocationPatch = Partial<
  Pick<
    LocationListing,
    'acceptingNewPatients' | 'panelCapacity' | 'phone' | 'website' | 'hours' | 'timeZone' | 'languages' | 'accessibility' | 'telehealth' | 'services' | 'pediatricAges'
  >
>;

export type ClinicianPatch = Partial<Pick<ClinicianListing, 'acceptingNewPatients' | 'languages' | 'telehealth' | 'locationIds'>>;
