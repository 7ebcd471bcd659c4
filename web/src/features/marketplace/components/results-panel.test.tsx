import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { clinicianItem, clinicItem } from '@/test/fixtures';
import { mockFetch, renderWithProviders } from '@/test/render';
import type { SearchResponse } from '@/api/market/types';
import { DEFAULT_FILTERS } from '../utils/filters';
import { INITIAL_SEARCH_STATE, searchReducer, type SearchState } from '../utils/search-state';
import { pageContent, ResultsPanel } from './results-panel';

function response(overrides: Partial<SearchResponse> = {}): SearchResponse {
  return {
    clinics: [clinicItem()],
    clinicians: [],
    totalPages: 1,
    currentPage: 1,
    totalResults: 1,
    origin: { lat: 39.7, lng: -104.9 },
    radiusMiles: 30,
    ...overrides,
  };
}

const searched: SearchState = { ...INITIAL_SEARCH_STATE, origin: { lat: 39.7, lng: -104.9 }, address: 'Denver, CO', searchId: 1 };

function renderPanel(state: SearchState, data: SearchResponse) {
  mockFetch(() => undefined);
  const handlers = { onTab: vi.fn(), onPage: vi.fn(), onAction: vi.fn(), onOpenDetails: vi.fn(), onHomeZipCode: vi.fn(), onOpenFilters: vi.fn(), onClearFilters: vi.fn() };
  renderWithProviders(<ResultsPanel state={state} data={data} loading={false} failed={false} member={null} {...handlers} />);
  return handlers;
}

describe('ResultsPanel', () => {
  // The empty answer is a lazy part: it appears once its chunk has loaded.
  it("says 'No clinicians found near your location' on an empty Providers tab", async () => {
    renderPanel({ ...searched, tab: 'providers' }, response());
    expect(await screen.findByText('No clinicians found near your location')).toBeTruthy();
  });

  it('offers Notify me when no clinic is found', async () => {
    renderPanel(searched, response({ clinics: [], totalPages: 0, totalResults: 0 }));
    expect(await screen.findByText('There were no clinics found near the location you entered...')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Notify me' })).toBeTruthy();
  });

  it("says 'No results found!' when filters leave nothing", async () => {
    renderPanel({ ...searched, filters: { ...DEFAULT_FILTERS, newPatients: true } }, response({ clinics: [], totalPages: 0, totalResults: 0 }));
    expect(await screen.findByText('No results found!')).toBeTruthy();
  });

  it("shows 'Find more providers' with 1 to 3 pages, and not with more", () => {
    renderPanel(searched, response({ totalPages: 3, totalResults: 18 }));
    expect(screen.getByText('Find more providers')).toBeTruthy();
  });

  it('hides the hint with many pages and shows the pager', () => {
    const handlers = renderPanel(searched, response({ totalPages: 9, totalResults: 54 }));
    expect(screen.queryByText('Find more providers')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(handlers.onPage).toHaveBeenCalledWith(2);
  });

  it('pages clinicians locally, 6 per page', () => {
    const clinicians = Array.from({ length: 14 }, (_, index) => clinicianItem({ id: index + 1 }));
    const data = response({ clinicians });
    const providers = { ...searched, tab: 'providers' as const, providerPage: 3 };
    const content = pageContent(providers, data);
    expect(content.totalPages).toBe(3);
    expect(content.clinicians.map((item) => item.id)).toEqual([13, 14]);
    expect(pageContent({ ...searched, tab: 'all' }, data).totalPages).toBe(3);
  });
});

describe('searchReducer', () => {
  it('keeps filters and goes back to page 1 when the map moves', () => {
    const filtered = { ...searched, filters: { ...DEFAULT_FILTERS, newPatients: true }, page: 4 };
    const moved = searchReducer(filtered, { type: 'move', origin: { lat: 1, lng: 2 }, address: 'There' });
    expect(moved.page).toBe(1);
    expect(moved.filters.newPatients).toBe(true);
    expect(moved.searchId).toBe(filtered.searchId);
  });

  it('starts a new search on page 1 and recentres', () => {
    const next = searchReducer({ ...searched, page: 3 }, { type: 'search', origin: { lat: 1, lng: 2 }, address: 'There' });
    expect(next.page).toBe(1);
    expect(next.searchId).toBe(searched.searchId + 1);
  });
});
