import type { MarketItem } from '@/features/marketplace/api/types';

/** A clinic card as the search call returns it. */
export function clinicItem(overrides: Partial<MarketItem> = {}): MarketItem {
  return {
    entity: 'location',
    id: 10,
    locationId: 100,
    locationName: 'Downtown',
    name: 'Mile High Direct Primary Care',
    organizationName: 'Mile High Health',
    credentials: 'MD, NP',
    address: '1600 Champa Street Suite 300',
    city: 'Denver',
    state: 'CO',
    zipCode: '80202',
    logo: '',
    coordinates: { lat: 39.75, lng: -104.99 },
    distance: 1.23456,
    gender: null,
    newPatients: true,
    isVirtualLocation: false,
    homeCare: false,
    careModality: { atClinic: true, atWork: false, inHome: false, phone: true, textChat: true, virtual: true },
    speciality: '',
    worksAt: null,
    category: 'Direct Primary Care',
    services: [],
    ...overrides,
  };
}

export function clinicianItem(overrides: Partial<MarketItem> = {}): MarketItem {
  return clinicItem({
    entity: 'provider',
    id: 501,
    name: 'Dr. Alexandra Montgomery-Smith',
    credentials: 'MD',
    gender: 'F',
    speciality: 'Family Medicine',
    worksAt: 'Mile High Direct Primary Care',
    category: 'Physician',
    ...overrides,
  });
}
