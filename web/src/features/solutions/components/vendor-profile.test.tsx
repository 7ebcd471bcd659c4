import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { mockFetch, renderWithProviders, signIn } from '@/test/render';
import { VendorProfile } from './vendor-profile';

const vendor = {
  id: 5,
  companyName: 'CareChat',
  category: 'Nurse line',
  logo: '',
  favorite: false,
  details: { description: 'Nurse chat around the clock.', website: '' },
  contact: { firstName: 'Vic', lastName: 'Vendor', email: 'vic@carechat.example', address1: '2 Side St' },
};

describe('VendorProfile', () => {
  it('takes a signed-in provider Back to Solution at /dpc-providers/solutions', async () => {
    signIn(`header.${btoa(JSON.stringify({ sub: '90', role: 'provider', org: 3 })).replace(/=+$/, '')}.signature`);
    mockFetch((url) => (url.pathname === '/dpcproviders/market/vendor/5' ? { body: vendor } : undefined));
    const { router } = renderWithProviders(<VendorProfile vendorId={5} />, { route: '/marketplace/vendor/details/5' });
    const [back] = await screen.findAllByRole('button', { name: /Back to Solution/ });
    fireEvent.click(back!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dpc-providers/solutions'));
  });
});
