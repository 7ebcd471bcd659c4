/** Shapes of the clinic and clinician profile calls. */
import type { CareModality } from '@/components/ui/care-modalities';
import type { LatLng } from './types';

export interface ClinicProfile {
  id: number;
  locationId: number;
  companyName: string;
  locationName: string;
  logo: string;
  credentials: string;
  newPatients: boolean;
  isVirtualLocation: boolean;
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
  clinics: ClinicianClinic[];
}
