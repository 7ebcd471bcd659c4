import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useQuery } from '@tanstack/react-query';
import { clinicianItem, clinicItem } from '@/test/fixtures';
import { bodyOf, mockFetch, renderWithProviders, signIn } from '@/test/render';
import type { SearchKeyParams } from '@/api/market/types';
import { searchMarket, searchMarketQueryOptions } from '@/api/market/search-market';
import { favoriteRequest, useToggleFavorite } from '@/api/market/toggle-favorite';
import type { SearchResponse } from '@/api/market/types';
import { cardAction } from '../utils/card-action';
import { activeFilterChips, DEFAULT_FILTERS } from '../utils/filters';
import { FilterDrawer } from './filter-drawer';
import { ResultCard } from './result-card';

const params: SearchKeyParams = { origin: { lat: 39.75, lng: -104.99 }, page: 1, filters: DEFAULT_FILTERS, employer: 'Acme Corporation', alias: null, userZipCode: null };
const page = (items = [clinicItem()]): SearchResponse => ({ clinics: items, clinicians: [clinicianItem()], totalPages: 1, currentPage: 1, totalResults: items.length, origin: params.origin!, radiusMiles: 30 });

/** The search page's cards, read from the cache the search fills, with the heart wired as on the page. */
function Cards() {
  const search = useQuery({ ...searchMarketQueryOptions(params), enabled: false });
  const favorite = useToggleFavorite();
  return (
    <>
      {[...(search.data?.clinics ?? []), ...(search.data?.clinicians ?? [])].map((item) => (
        <ResultCard
          key={`${item.entity}-${item.id}`}
          item={item}
          action={cardAction(item, null)}
          onAction={vi.fn()}
          onOpenDetails={vi.fn()}
          onToggleFavorite={(card) => favorite.mutate(favoriteRequest(card, !card.favorite))}
          favoriteBusy={favorite.isPending}
        />
      ))}
    </>
  );
}

describe('favourites', () => {
  it('shows the favourite flag on a card the server marks, and no heart while signed out', () => {
    render(<ResultCard item={clinicItem({ favorite: true })} action={cardAction(clinicItem(), null)} onAction={vi.fn()} onOpenDetails={vi.fn()} />);
    expect(screen.getByTestId('favorite-flag').textContent).toContain('Favorite');
    expect(screen.queryByRole('button', { name: /favorites/ })).toBeNull();
  });

  it('names the location or the clinician in the request', () => {
    expect(favoriteRequest(clinicItem(), true)).toEqual({ entity: 'location', location: 100, favorite: true });
    expect(favoriteRequest(clinicianItem(), false)).toEqual({ entity: 'provider', provider: 501, favorite: false });
  });

  it('flips the heart only after the server accepts', async () => {
    signIn();
    let answer: { status: number; body: unknown } = { status: 500, body: { message: 'Internal error', code: 'internal' } };
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/market/favorite' ? answer : undefined));
    const { queryClient } = renderWithProviders(<Cards />);
    queryClient.setQueryData(searchMarketQueryOptions(params).queryKey, page());
    const heart = (await screen.findByRole('button', { name: 'Add Mile High Direct Primary Care — Downtown to favorites' })) as HTMLButtonElement;
    expect(heart.getAttribute('aria-pressed')).toBe('false');

    // Refused: the heart stays as it was.
    fireEvent.click(heart);
    await waitFor(() => expect(calls).toHaveLength(1));
    await waitFor(() => expect(heart.disabled).toBe(false));
    expect(screen.getByRole('button', { name: 'Add Mile High Direct Primary Care — Downtown to favorites' }).getAttribute('aria-pressed')).toBe('false');

    answer = { status: 200, body: { entity: 'location', id: 100, favorite: true } };
    fireEvent.click(heart);
    const pressed = await screen.findByRole('button', { name: 'Remove Mile High Direct Primary Care — Downtown from favorites' });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    expect(bodyOf(calls[1]!)).toEqual({ entity: 'location', location: 100, favorite: true });
    const card = screen.getAllByTestId('result-card')[0]!;
    expect(within(card).getByTestId('favorite-flag')).toBeTruthy();
    // The clinician card is untouched.
    expect(screen.getByRole('button', { name: 'Add Dr. Alexandra Montgomery-Smith to favorites' })).toBeTruthy();
  });

  it('offers the Favorites filter only once signed in', () => {
    mockFetch(() => ({ body: [] }));
    const { unmount } = renderWithProviders(<FilterDrawer open onClose={vi.fn()} filters={DEFAULT_FILTERS} onApply={vi.fn()} alias={null} />);
    expect(screen.queryByLabelText('Favorites')).toBeNull();
    unmount();
    signIn();
    const onApply = vi.fn();
    renderWithProviders(<FilterDrawer open onClose={vi.fn()} filters={DEFAULT_FILTERS} onApply={onApply} alias={null} />);
    fireEvent.click(screen.getByLabelText('Favorites'));
    fireEvent.click(screen.getByRole('button', { name: 'View results' }));
    expect(onApply).toHaveBeenCalledWith({ ...DEFAULT_FILTERS, favorites: true });
    expect(activeFilterChips({ ...DEFAULT_FILTERS, favorites: true }).map((chip) => chip.label)).toEqual(['Favorites']);
  });

  it('sends search.filters.favorites, and searches as the selected family member', async () => {
    const { calls } = mockFetch(() => ({ body: page() }));
    await searchMarket({ ...params, filters: { ...DEFAULT_FILTERS, favorites: true } });
    expect(calls[0]!.url.pathname).toBe('/member/app/market/search');
    expect((bodyOf(calls[0]!).search as { filters: Record<string, unknown> }).filters.favorites).toBe(true);
    await searchMarket({ ...params, dependentId: 22 });
    expect(calls[1]!.url.pathname).toBe('/member/app/family/member/22/market');
    expect(calls[1]!.url.searchParams.get('limit')).toBe('6');
    expect((bodyOf(calls[1]!).search as { filters: Record<string, unknown> }).filters.favorites).toBeUndefined();
  });
});
