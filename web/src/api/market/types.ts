/** Shapes of the marketplace API, named as the server names them. */
import type { CareModality } from '@/components/ui/care-modalities';

export interface LatLng {
  lat: number;
  lng: number;
}

export type MarketEntity = 'location' | 'provider' | 'vendor' | 'solution';

/** A card of the marketplace: a clinic location or a clinician. */
export interface MarketItem {
  entity: MarketEntity;
  /** The organisation id for locations, the clinician id for providers. */
  id: number;
  locationId: number;
  locationName: string;
  name: string;
  organizationName?: string;
  credentials: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  logo: string;
  coordinates: LatLng;
  /** Miles from the search origin; null for virtual locations. */
  distance: number | null;
  gender: 'F' | 'M' | null;
  newPatients: boolean;
  isVirtualLocation: boolean;
  homeCare: boolean;
  careModality: CareModality;
  speciality: string;
  worksAt?: string | null;
  category: string;
  services: { serviceTypeCode: string }[];
  /** The UTC day the listing was last confirmed by the clinic (YYYY-MM-DD), or null when never. */
  lastVerified?: string | null;
  /** The signed-in member's favourite (sent only when true). */
  favorite?: boolean;
  /** The signed-in member is on this clinic's waitlist (asked of the server; not sent yet). */
  waitlisted?: boolean;
}

/** The filter drawer's values, sent as `search.filters`. */
export interface SearchFilters {
  searchByName: string;
  newPatients: boolean;
  pediatrics: boolean;
  selectedCredentials: string[];
  selectedSpecialities: string[];
  selectedGenders: ('F' | 'M')[];
  selectedGroupAndOrganizations: string[];
  /** Slider position 0..9; see `sliderMiles`. */
  searchDistance: number;
  /** Only the signed-in member's favourites. */
  favorites: boolean;
  /** ISO 639 codes: clinics where one of them is spoken. */
  selectedLanguages: string[];
  /** Plan-Net accessibility codes: clinics that list all of them. */
  selectedAccessibility: string[];
}

export interface SearchResponse {
  clinics: MarketItem[];
  clinicians: MarketItem[];
  totalPages: number;
  currentPage: number;
  totalResults: number;
  origin: LatLng;
  radiusMiles: number;
}

/** An employer as GET /member/app/potential/employers lists it. */
export interface Employer {
  id: number | string;
  companyName: string;
  status: 'active' | 'inactive' | 'pending';
}

export interface Bounds {
  nwLng: number;
  nwLat: number;
  seLng: number;
  seLat: number;
}

export interface LocationPin {
  id: number;
  locationId: number;
  name: string;
  /** The location's own name ("LoDo"). */
  locationName?: string;
  coordinates: LatLng;
  newPatients: boolean;
  /** The signed-in member's favourite. */
  favorite?: boolean;
}

export interface PinsResponse {
  pins: LocationPin[];
  overLimit: boolean;
  limit: number;
}

export interface AreaPin {
  coordinates: LatLng;
  count: number;
  newPatients: number | boolean;
  bounds: Bounds;
}

export interface AreaPinsResponse {
  areas: AreaPin[];
  total: number;
  cellLevel: number;
}

export interface Prediction {
  description: string;
  kind: 'zip' | 'city' | 'clinic';
  location: LatLng | null;
  locationId?: number;
  id?: number;
}

export interface GeocodeResponse {
  /** `zipCode` and `state`: the place's ZIP code (when it has one) and USPS state. */
  results: { geometry: { location: LatLng }; formatted_address: string; zipCode?: string | null; state?: string }[];
}

/** What one search page is asked with; the page's query key. */
export interface SearchKeyParams {
  origin: LatLng | null;
  page: number;
  filters: SearchFilters;
  employer: string | null;
  alias: string | null;
  userZipCode: string | null;
  /** A family member the search is for (their own enrolment state marks the cards); null: the caller. */
  dependentId?: number | null;
}

/** What the pin calls are asked: the list's own question (filters, employer, alias, origin). */
export interface PinFilters {
  filters: SearchFilters;
  employer: string | null;
  alias: string | null;
  /** The search origin: the distance filter measures from it. */
  origin: LatLng | null;
  userZipCode: string | null;
}
