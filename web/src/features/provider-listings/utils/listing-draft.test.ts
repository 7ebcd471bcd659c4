import { describe, expect, it } from 'vitest';
import type { ClinicianListing, LocationListing } from '@/api/listings/types';
import { clinicianDraft, clinicianPatch, emptyWeek, locationDraft, locationPatch, withAnotherRange } from './listing-draft';

const location: LocationListing = {
  id: 7,
  name: 'Front Range DPC',
  locationName: 'Downtown',
  address1: '1 Main St',
  city: 'Denver',
  state: 'CO',
  zipCode: '80202',
  isVirtualLocation: false,
  acceptingNewPatients: true,
  panelCapacity: 600,
  panel: { members: 12, full: false },
  phone: '303 555 0100',
  website: 'frontrange.example',
  hours: { ...emptyWeek(), mon: [{ opens: '08:00', closes: '17:00' }] },
  timeZone: 'America/Denver',
  languages: ['en', 'es'],
  accessibility: ['handiaccess'],
  telehealth: false,
  services: ['30', '98', 'BH'],
  pediatricAges: { min: 0, max: 17 },
  lastVerified: '2026-08-01T00:00:00Z',
  due: true,
};

describe('locationPatch', () => {
  it('sends nothing when nothing changed', () => {
    expect(locationPatch(location, locationDraft(location))).toEqual({});
  });

  it('sends only the fields that changed, languages in any order', () => {
    const draft = { ...locationDraft(location), languages: ['es', 'en', 'vi'], acceptingNewPatients: false, panelCapacity: '' };
    expect(locationPatch(location, draft)).toEqual({ languages: ['es', 'en', 'vi'], acceptingNewPatients: false, panelCapacity: null });
  });

  it('sends the hours sorted, and a typed number as a number', () => {
    const hours = { ...emptyWeek(), mon: [{ opens: '13:00', closes: '17:00' }, { opens: '08:00', closes: '12:00' }] };
    const patch = locationPatch(location, { ...locationDraft(location), hours, panelCapacity: ' 800 ' });
    expect(patch.hours?.mon).toEqual([
      { opens: '08:00', closes: '12:00' },
      { opens: '13:00', closes: '17:00' },
    ]);
    expect(patch.panelCapacity).toBe(800);
  });

  it('clears the pediatric ages with the pediatric service, and sends what was typed for the server to judge', () => {
    expect(locationPatch(location, { ...locationDraft(location), services: ['30', '98'] })).toEqual({ services: ['30', '98'], pediatricAges: null });
    expect(locationPatch(location, { ...locationDraft(location), pediatricMax: 'twelve' }).pediatricAges).toEqual({ min: 0, max: 'twelve' });
  });
});

describe('clinicianPatch', () => {
  const clinician: ClinicianListing = {
    id: 3,
    name: 'Ana Lopez',
    credentials: 'MD',
    npi: '1234567893',
    acceptingNewPatients: true,
    languages: ['en'],
    telehealth: true,
    locationIds: [7],
    lastVerified: null,
    due: true,
  };

  it('sends the changed fields only', () => {
    expect(clinicianPatch(clinician, clinicianDraft(clinician))).toEqual({});
    expect(clinicianPatch(clinician, { ...clinicianDraft(clinician), locationIds: [7, 8], languages: ['en', 'es'] })).toEqual({ locationIds: [7, 8], languages: ['en', 'es'] });
  });
});

describe('withAnotherRange', () => {
  it('opens a closed day at nine to five and adds later ranges after the last', () => {
    expect(withAnotherRange([])).toEqual([{ opens: '09:00', closes: '17:00' }]);
    expect(withAnotherRange([{ opens: '08:00', closes: '12:00' }])).toEqual([
      { opens: '08:00', closes: '12:00' },
      { opens: '13:00', closes: '15:00' },
    ]);
  });
});
