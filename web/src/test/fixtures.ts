import type { MarketItem } from '@/api/market/types';

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

import type { Member } from '@/lib/member';

/** A signed-in subscriber as GET /member/app/member/info returns it. */
export function memberFixture(overrides: Partial<Member> = {}): Member {
  return {
    id: 7,
    email: 'jane.doe@acme.example',
    firstName: 'Jane',
    lastName: 'Doe',
    dob: '1985-04-12',
    gender: 'f',
    phone: '303 555 0100',
    zipCode: '80202',
    memberId: '123-456789',
    planId: 'PLN-1001',
    payerId: '60054',
    groupId: '1000011',
    planName: 'Cascade Gold PPO',
    employerId: 1,
    companyName: 'Acme Corporation',
    subscriberRelation: 'Self',
    nextStep: 'complete',
    setup: 'complete',
    emailVerified: true,
    password: true,
    eligibility: { status: 'active' },
    subscription: { status: 'pending', expire: '2027-11-21' },
    providerId: 1,
    locationId: 1,
    location: { id: 1, name: 'Front Range Direct Primary Care', address1: '1600 Champa St', city: 'Denver', state: 'CO', zip: '80202', phone: '303 555 0199', logo: '' },
    providerPortal: null,
    family: [],
    payers: [{ payerId: '60054', payerName: 'Cascade Health Plan', plans: [{ planId: 'PLN-1001', name: 'Cascade Gold PPO', groupId: '1000011' }] }],
    employer: { id: 1, companyName: 'Acme Corporation', groups: [{ groupId: '1000011', tpa: { payerId: '60054' } }] },
    ...overrides,
  };
}
