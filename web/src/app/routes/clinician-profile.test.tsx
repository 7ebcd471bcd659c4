import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { selectedProvider, storedEmployer } from '@/lib/storage';
import { mockFetch, renderRoutes } from '@/test/render';
import ClinicianProfileRoute from './clinician-profile';

const clinician = {
  id: 3,
  providerName: 'Angela Ford',
  credentials: 'DO',
  category: 'Physician',
  newPatients: true,
  gender: 'F',
  logo: '',
  favorite: false,
  details: { description: 'Short bio.', gender: 'F', NPI: '1976727606' },
  clinics: [
    { id: 1, providerName: 'Front Range Direct Primary Care', logo: '', address: '1600 Champa St', address1: '1600 Champa St', city: 'Denver', state: 'CO', zip: '80202', distance: 1.2, homeCare: false, coordinates: { lat: 39.75, lng: -104.99 }, locationId: 3 },
  ],
};

vi.stubGlobal('ResizeObserver', class { observe() {} unobserve() {} disconnect() {} });

function renderClinician() {
  mockFetch((url) => {
    if (url.pathname === '/member/app/market/doctor/3') return { body: clinician };
    if (url.pathname === '/member/app/potential/employers') return { body: [{ id: 1, companyName: 'Acme Corporation', status: 'active' }] };
    return undefined;
  });
  return renderRoutes({ '/marketplace/clinician/details/:id': <ClinicianProfileRoute />, '/register': <p>register page</p> }, '/marketplace/clinician/details/3');
}

async function selectFirstClinic() {
  fireEvent.click(await screen.findByRole('tab', { name: /Locations/ }));
  fireEvent.click(screen.getByRole('button', { name: 'Select' }));
}

describe('Select on a clinician profile', () => {
  it('asks for the employer first, then stores the clinic and goes to /register', async () => {
    const { router } = renderClinician();
    await selectFirstClinic();
    const prompt = await screen.findByRole('dialog', { name: 'Who is your employer?' });
    expect(router.state.location.pathname).toBe('/marketplace/clinician/details/3');
    fireEvent.click(within(prompt).getByRole('button', { name: /Select your employer/ }));
    fireEvent.click(await within(prompt).findByRole('option', { name: /^Acme Corporation/ }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Perfect!' })).getByRole('button', { name: 'Find My Provider' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'));
    expect(storedEmployer.get()).toEqual({ id: 1, companyName: 'Acme Corporation', status: 'active' });
    expect(selectedProvider.get()).toEqual({ providerId: 1, locationId: 3, name: 'Front Range Direct Primary Care' });
  });

  it('with an employer chosen, goes through the enrolment flow at once', async () => {
    storedEmployer.set({ id: 1, companyName: 'Acme Corporation', status: 'active' });
    const { router } = renderClinician();
    await selectFirstClinic();
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'));
    expect(selectedProvider.get()).toMatchObject({ providerId: 1, locationId: 3 });
  });
});
