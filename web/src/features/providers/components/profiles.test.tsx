import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { MemberStateContext, memberStateFrom } from '@/lib/member-state';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderWithProviders, signIn } from '@/test/render';
import { clinicFooterAction } from '../utils/footer-action';
import { ClinicProfile, NOT_ACCEPTING_TEXT } from './clinic-profile';
import { ClinicianProfile, CORE_SERVICES } from './clinician-profile';

function clinicBody(overrides: Record<string, unknown> = {}) {
  return {
    id: 1,
    locationId: 7,
    companyName: 'Front Range Direct Primary Care',
    locationName: 'LoDo',
    logo: '',
    credentials: 'DO',
    newPatients: true,
    isVirtualLocation: false,
    homeCare: false,
    careModality: { atClinic: true, atWork: false, inHome: false, phone: true, textChat: true, virtual: false },
    details: { description: 'x'.repeat(320) },
    favorite: false,
    contracted: false,
    contact: { phone: '303-555-0149', address1: '1 Main St', city: 'Denver', state: 'CO', zipCode: '80202', website: 'frontrange.example', coordinates: { lat: 39.7, lng: -104.9 } },
    services: [{ serviceType: 'Primary care' }],
    clinicians: [{ id: 3, providerName: 'Angela Ford', category: 'Physician', gender: 'F', worksAt: 'Front Range Direct Primary Care', logo: '' }],
    otherLocations: [],
    ...overrides,
  };
}

describe('ClinicProfile', () => {
  it('shows the waitlist block when the location is not accepting new patients', async () => {
    mockFetch((url) => (url.pathname === '/member/app/market/provider/1' ? { body: clinicBody({ newPatients: false }) } : undefined));
    const onJoinWaitlist = vi.fn();
    renderWithProviders(<ClinicProfile organisationId={1} locationId={7} onJoinWaitlist={onJoinWaitlist} />);
    const footer = await screen.findByTestId('clinic-footer');
    expect(within(footer).getByText(NOT_ACCEPTING_TEXT)).toBeTruthy();
    expect(NOT_ACCEPTING_TEXT).toBe('This location is not accepting new patients at the moment');
    expect(within(footer).getByRole('link', { name: 'Find another location' }).getAttribute('href')).toBe('/marketplace');
    fireEvent.click(within(footer).getByRole('button', { name: 'Join the waitlist' }));
    expect(onJoinWaitlist).toHaveBeenCalledWith({ locationId: 7, name: 'Front Range Direct Primary Care' });
  });

  it('offers Select provider, which stores the provider and goes to /register when signed out', async () => {
    mockFetch((url) => (url.pathname === '/member/app/market/provider/1' ? { body: clinicBody() } : undefined));
    const { router } = renderWithProviders(<ClinicProfile organisationId={1} locationId={7} />, { route: '/marketplace/provider/details/1?location=7', path: '/marketplace/provider/details/:id' });
    fireEvent.click(await screen.findByRole('button', { name: 'Select provider' }));
    expect(JSON.parse(window.localStorage.getItem('selectedProvider')!)).toMatchObject({ providerId: 1, locationId: 7 });
    expect(router.state.location.pathname).toBe('/register');
  });

  it('hands Select provider to the enrolment flow when the route gives one', async () => {
    mockFetch((url) => (url.pathname === '/member/app/market/provider/1' ? { body: clinicBody() } : undefined));
    const onSelect = vi.fn();
    renderWithProviders(<ClinicProfile organisationId={1} locationId={7} onSelect={onSelect} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Select provider' }));
    expect(onSelect).toHaveBeenCalledWith({ providerId: 1, locationId: 7, name: 'Front Range Direct Primary Care', locationName: 'LoDo' });
    expect(window.localStorage.getItem('selectedProvider')).toBeNull();
  });

  it("loads the selected family member's profile through their own call", async () => {
    signIn();
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/family/member/22/market/provider/1' ? { body: clinicBody() } : undefined));
    const family = [{ id: 22, firstName: 'John', lastName: 'Doe', subscriberRelation: 'Spouse' as const, location: null, subscription: null }];
    renderWithProviders(
      <MemberStateContext value={memberStateFrom(memberFixture({ family }), 22)}>
        <ClinicProfile organisationId={1} locationId={7} />
      </MemberStateContext>,
    );
    expect(await screen.findByRole('heading', { name: 'Front Range Direct Primary Care', level: 1 })).toBeTruthy();
    expect(calls[0]!.url.pathname).toBe('/member/app/family/member/22/market/provider/1');
    expect(calls[0]!.url.searchParams.get('locationId')).toBe('7');
  });

  it('flips the favourite heart once the server accepts', async () => {
    signIn();
    let favorite = false;
    const { calls } = mockFetch((url, init) => {
      if (url.pathname === '/member/app/market/provider/1') return { body: clinicBody({ favorite }) };
      if (url.pathname === '/member/app/market/favorite' && init?.method === 'POST') {
        favorite = true;
        return { body: { entity: 'location', id: 7, favorite: true } };
      }
      return undefined;
    });
    renderWithProviders(<ClinicProfile organisationId={1} locationId={7} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add to favorites' }));
    expect(await screen.findByRole('button', { name: 'Favorite' })).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/market/favorite')!)).toEqual({ entity: 'location', location: 7, favorite: true });
  });

  it('hides At-clinic and shows In-home for a virtual location, and has the four tabs', async () => {
    mockFetch((url) => (url.pathname === '/member/app/market/provider/1' ? { body: clinicBody({ isVirtualLocation: true }) } : undefined));
    renderWithProviders(<ClinicProfile organisationId={1} locationId={7} />);
    const modalities = await screen.findByRole('list', { name: 'Care modalities' });
    const labels = within(modalities).getAllByRole('listitem').map((item) => item.querySelector('span')!.textContent);
    expect(labels).toEqual(['In-home', 'Phone', 'Text/Chat']);
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Info', 'Contact Information', 'Services', 'Providers1']);
    expect(screen.getByRole('button', { name: 'Show more' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /favou?rite/i })).toBeNull();
  });

  it("says 'Provider not found' on a 404", async () => {
    mockFetch(() => ({ status: 404, body: { message: 'Provider not found', code: 'not_found' } }));
    renderWithProviders(<ClinicProfile organisationId={99} locationId={null} />);
    expect(await screen.findByText('Provider not found')).toBeTruthy();
  });
});

describe('clinicFooterAction', () => {
  it('follows the member state', () => {
    const clinic = { locationId: 7, newPatients: true };
    expect(clinicFooterAction(clinic, null)).toBe('select');
    expect(clinicFooterAction({ ...clinic, newPatients: false }, null)).toBe('waitlist');
    expect(clinicFooterAction(clinic, { nextStep: 'confirmPlan', subscriptionStatus: null, locationId: 7 })).toBe('confirm-eligibility');
    expect(clinicFooterAction(clinic, { nextStep: 'complete', subscriptionStatus: 'pending', locationId: 7 })).toBe('pending-membership');
    expect(clinicFooterAction(clinic, { nextStep: 'complete', subscriptionStatus: 'active', locationId: 7 })).toBe('active-membership');
  });
});

describe('ClinicianProfile', () => {
  const clinician = {
    id: 3,
    providerName: 'Angela Ford',
    credentials: 'DO',
    category: 'Physician',
    newPatients: false,
    gender: 'M',
    logo: '',
    favorite: false,
    details: { description: 'Short bio.', gender: 'M', NPI: '1976727606' },
    clinics: [],
  };

  it('shows name and credentials, gender, NPI, availability, Trusted Partner and Login', async () => {
    mockFetch((url) => (url.pathname === '/member/app/market/doctor/3' ? { body: clinician } : undefined));
    renderWithProviders(<ClinicianProfile clinicianId={3} onSelect={vi.fn()} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Angela Ford, DO' })).toBeTruthy();
    expect(screen.getByText('Male')).toBeTruthy();
    expect(screen.getByText('1976727606')).toBeTruthy();
    expect(screen.getByText('Not accepting new patients')).toBeTruthy();
    expect(screen.getByText('Trusted Partner')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/login');
    const blurbs = screen.getByRole('heading', { name: 'Ways to get care' }).parentElement!;
    expect([...blurbs.querySelectorAll('strong')].map((title) => title.textContent)).toEqual(['At-Clinic', 'Virtual', 'Text/Chat', 'Phone', 'At Work']);
  });

  it('lists the core services and says when no clinic is listed', async () => {
    mockFetch((url) => (url.pathname === '/member/app/market/doctor/3' ? { body: { ...clinician, newPatients: true } } : undefined));
    renderWithProviders(<ClinicianProfile clinicianId={3} onSelect={vi.fn()} />);
    expect(await screen.findByText('Next day appointments typically available')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Services' }));
    for (const service of CORE_SERVICES) expect(screen.getByText(service)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: /Locations/ }));
    expect(screen.getByText('Angela Ford has not listed any clinics yet.')).toBeTruthy();
  });
});
