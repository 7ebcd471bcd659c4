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

  it.each([
    ['a member', 'header.payload.signature', '/member/app/market/favorite'],
    ['a provider', `header.${btoa(JSON.stringify({ sub: '90', role: 'provider', org: 3 })).replace(/=+$/, '')}.signature`, '/dpcproviders/market/favorite'],
  ])("sends %s's heart to their own side's call", async (_who, token, path) => {
    signIn(token);
    const { calls } = mockFetch((url, init) => {
      if (url.pathname === '/dpcproviders/market/vendor/5') return { body: vendor };
      if (url.pathname === path && init?.method === 'POST') return { body: { entity: 'vendor', id: 5, favorite: true } };
      return undefined;
    });
    renderWithProviders(<VendorProfile vendorId={5} />, { route: '/marketplace/vendor/details/5' });
    fireEvent.click(await screen.findByRole('button', { name: 'Add to favorites' }));
    await waitFor(() => expect(calls.some((call) => call.url.pathname === path && call.init?.method === 'POST')).toBe(true));
    const posted = calls.find((call) => call.url.pathname === path)!;
    expect(JSON.parse(String(posted.init?.body))).toEqual({ entity: 'vendor', vendor: 5, favorite: true });
    expect(calls.filter((call) => call.init?.method === 'POST')).toHaveLength(1);
  });
});
