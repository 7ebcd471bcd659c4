/** Shapes of the clinic and clinician profile calls. */
import type { CareModality } from '@/components/ui/care-modalities';
import type { LatLng } from './types';

/** One opening of a day, in the clinic's own time zone (`HH:MM`; `24:00` ends the day). */
export interface OpeningRange {
  opens: string;
  closes: string;
}

/** A week of opening hours: every day named (`mon` ... `sun`), `[]` when closed. */
export type WeeklyHours = Record<'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun', OpeningRange[]>;

export interface NamedLanguage {
  code: string;
  name: string;
}

export interface LabelledCode {
  code: string;
  label: string;
}

export interface ClinicProfile {
  id: number;
  locationId: number;
  companyName: string;
  locationName: string;
  logo: string;
  credentials: string;
  newPatients: boolean;
  isVirtualLocation: boolean;
  /** The states a virtual network serves (USPS codes). */
  virtualStates?: string[];
  homeCare: boolean;
  careModality: CareModality;
  details: { description: string };
  favorite: boolean;
  /** The signed-in member is on this clinic's waitlist (asked of the server; not sent yet). */
  waitlisted?: boolean;
  contracted: boolean;
  contact: {
    phone: string;
    address1: string;
    city: string;
    state: string;
    zipCode: string;
    website: string;
    coordinates: LatLng;
  };
  services: { serviceType: string }[];
  /** Null when the clinic has not given its hours. */
  hours?: WeeklyHours | null;
  /** The clinic's IANA time zone: its hours are in it. */
  timeZone?: string;
  languages?: NamedLanguage[];
  accessibility?: LabelledCode[];
  telehealth?: boolean;
  /** When the clinic last confirmed its listing (RFC 3339), or null when never. */
  lastVerified?: string | null;
  clinicians: { id: number; providerName: string; category: string; gender: string | null; worksAt: string; logo: string; credentials?: string }[];
  otherLocations: { locationId: number; locationName: string; address1: string; city: string; state: string }[];
}

export interface ClinicianClinic {
  id: number;
  providerName: string;
  logo: string;
  address: string;
  address1: string;
  city: string;
  state: string;
  zip: string;
  distance: number | null;
  homeCare: boolean;
  careModality?: CareModality;
  coordinates: LatLng;
  locationId: number;
}

export interface Clinician {
  id: number;
  providerName: string;
  credentials: string;
  category: string;
  newPatients: boolean;
  gender: string | null;
  logo: string;
  favorite: boolean;
  details: { description: string; gender: string | null; NPI: string };
  languages?: NamedLanguage[];
  telehealth?: boolean;
  /** When the clinic last confirmed this listing (RFC 3339), or null when never. */
  lastVerified?: string | null;
  /** The ways of care of the places the clinician works, joined (what their cards show). */
  careModality?: CareModality | null;
  clinics: ClinicianClinic[];
}
