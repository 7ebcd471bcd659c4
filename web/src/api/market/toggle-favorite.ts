import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { MarketItem, SearchResponse } from './types';

export type FavoriteRequest = { entity: 'location'; location: number; favorite: boolean } | { entity: 'provider'; provider: number; favorite: boolean };

/** The favourite request for a card: a clinic location by its location id, a clinician by id. */
export function favoriteRequest(item: Pick<MarketItem, 'entity' | 'id' | 'locationId'>, favorite: boolean): FavoriteRequest {
  return item.entity === 'provider' ? { entity: 'provider', provider: item.id, favorite } : { entity: 'location', location: item.locationId, favorite };
}

/** POST /member/app/market/favorite: marks a clinic location or clinician; answers `{entity, id, favorite}`. */
export function toggleFavorite(request: FavoriteRequest): Promise<{ entity: string; id: number; favorite: boolean }> {
  return apiRequest('/member/app/market/favorite', { method: 'POST', body: request });
}

/** Whether a card is the one a favourite answer is about. */
function isTarget(item: MarketItem, request: FavoriteRequest): boolean {
  return request.entity === 'provider' ? item.entity === 'provider' && item.id === request.provider : item.entity === 'location' && item.locationId === request.location;
}

/**
 * Shows an accepted favourite everywhere at once: the cached search pages are patched (their
 * hearts flip without waiting for a refetch), and the pins, a Favorites-filtered search, the map
 * previews and the clinic and clinician profiles are loaded again.
 */
function showFavorite(queryClient: QueryClient, request: FavoriteRequest): void {
  queryClient.setQueriesData<SearchResponse>({ queryKey: queryKeys.market.searches() }, (page) =>
    page
      ? {
          ...page,
          clinics: page.clinics.map((item) => (isTarget(item, request) ? { ...item, favorite: request.favorite } : item)),
          clinicians: page.clinicians.map((item) => (isTarget(item, request) ? { ...item, favorite: request.favorite } : item)),
        }
      : page,
  );
  void queryClient.invalidateQueries({ queryKey: queryKeys.market.allPins() });
  void queryClient.invalidateQueries({
    queryKey: queryKeys.market.searches(),
    predicate: (query) => Boolean((query.queryKey[2] as { filters?: { favorites?: boolean } } | undefined)?.filters?.favorites),
  });
  void queryClient.invalidateQueries({ queryKey: queryKeys.market.allPreviews() });
  void queryClient.invalidateQueries({ queryKey: queryKeys.profiles.all });
}

/** The heart of a card, a pin or a profile: it flips only after the server accepts. */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleFavorite,
    onError: (failure) => console.warn('favourite refused', failure),
    onSuccess: (_answer, request) => showFavorite(queryClient, request),
  });
}
