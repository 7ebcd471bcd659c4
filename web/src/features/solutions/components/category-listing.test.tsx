import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { mockFetch, renderWithProviders } from '@/test/render';
import type { CategoryItem } from '@/api/solutions/types';
import { CategoryListing, itemTypeLabel, matchesCategorySearch } from './category-listing';

const items: CategoryItem[] = [
  { entity: 'solution', type: 'virtual_network', id: 2, name: 'Cloverleaf Network', logo: '', description: 'Video visits', website: 'https://clover.example' },
  { entity: 'vendor', id: 5, name: 'CareChat', logo: '', description: 'Nurse chat', website: '' },
];

describe('CategoryListing', () => {
  it('labels items and matches name, description and type', () => {
    expect(items.map(itemTypeLabel)).toEqual(['Virtual Network', 'Point Solution Vendor']);
    expect(matchesCategorySearch(items[1]!, 'vendor')).toBe(true);
    expect(matchesCategorySearch(items[0]!, 'video')).toBe(true);
    expect(matchesCategorySearch(items[0]!, 'chat')).toBe(false);
  });

  it('links solutions to /marketplace/details and vendors to their profile, with Back to Solutions', async () => {
    mockFetch((url) => (url.pathname === '/member/app/market' ? { body: { categories: [{ id: 1, name: 'Virtual Care', slug: 'virtual-care', items }] } } : undefined));
    renderWithProviders(<CategoryListing category="virtual-care" />);
    expect(await screen.findByRole('heading', { name: 'Virtual Care' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to Solutions/ }).getAttribute('href')).toBe('/marketplace');
    expect(screen.getByRole('link', { name: /Cloverleaf Network/ }).getAttribute('href')).toBe('/marketplace/details/2');
    expect(screen.getByRole('link', { name: /CareChat/ }).getAttribute('href')).toBe('/marketplace/vendor/details/5');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search solutions' }), { target: { value: 'nurse' } });
    expect(screen.queryByRole('link', { name: /Cloverleaf Network/ })).toBeNull();
  });
});
