import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { marketplaceKeys } from './keys';
import type { MarketItem, SearchResponse } from './types';

export type MarketFavoriteRequest = { entity: 'location'; location: number; favorite: boolean } | { entity: 'provider'; provider: number; favorite: boolean };

/** The favourite request for a card: a clinic location by its location id, a clinician by id. */
export function favoriteRequest(item: Pick<MarketItem, 'entity' | 'id' | 'locationId'>, favorite: boolean): MarketFavoriteRequest {
  return item.entity === 'provider' ? { entity: 'provider', provider: item.id, favorite } : { entity: 'location', location: item.locationId, favorite };
}

/** POST /member/app/market/favorite: answers `{entity, id, favorite}`. */
export function toggleMarketFavorite(request: MarketFavoriteRequest): Promise<{ entity: string; id: number; favorite: boolean }> {
  return apiRequest('/member/app/market/favorite', { method: 'POST', body: request });
}

/** Whether a card is the one a favourite answer is about. */
function isTarget(item: MarketItem, request: MarketFavoriteRequest): boolean {
  return request.entity === 'provider' ? item.entity === 'provider' && item.id === request.provider : item.entity === 'location' && item.locationId === request.location;
}

/**
 * The card heart: it flips only after the server accepts, by patching the cached search pages;
 * the pins (their favourite flag) and a Favorites-filtered search are loaded again.
 */
export function useToggleMarketFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleMarketFavorite,
    onError: (failure) => console.warn('favourite refused', failure),
    onSuccess: (_answer, request) => {
      queryClient.setQueriesData<SearchResponse>({ queryKey: [...marketplaceKeys.all, 'search'] }, (page) =>
        page
          ? {
              ...page,
              clinics: page.clinics.map((item) => (isTarget(item, request) ? { ...item, favorite: request.favorite } : item)),
              clinicians: page.clinicians.map((item) => (isTarget(item, request) ? { ...item, favorite: request.favorite } : item)),
            }
          : page,
      );
      void queryClient.invalidateQueries({ queryKey: [...marketplaceKeys.all, 'pins'] });
      void queryClient.invalidateQueries({
        queryKey: [...marketplaceKeys.all, 'search'],
        predicate: (query) => Boolean((query.queryKey[2] as { filters?: { favorites?: boolean } } | undefined)?.filters?.favorites),
      });
    },
  });
}
