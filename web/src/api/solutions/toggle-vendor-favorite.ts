import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { accountKind } from '@/lib/session';
import { queryKeys } from '@/api/query-keys';
import type { ProviderSolutions } from '@/api/providers/types';
import type { Solution } from './types';

export type VendorFavoriteRequest = { entity: 'vendor'; vendor: number; favorite: boolean } | { entity: 'solution'; solution: number; favorite: boolean };

/**
 * Marks a vendor or solution as a favourite of whoever is signed in: a provider account through
 * POST /dpcproviders/market/favorite, a member through POST /member/app/market/favorite (the
 * server refuses the other side's call with 403).
 */
export function toggleVendorFavorite(request: VendorFavoriteRequest): Promise<unknown> {
  const path = accountKind() === 'provider' ? '/dpcproviders/market/favorite' : '/member/app/market/favorite';
  return apiRequest<unknown>(path, { method: 'POST', body: request });
}

/**
 * The heart changes once the server accepts: the cached solution and the provider's cards are
 * patched at once, then everything under the solutions key reloads (My Favorites' content).
 */
export function useToggleVendorFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleVendorFavorite,
    onSuccess: (_answer, request) => {
      if (request.entity === 'solution') {
        const { solution: id, favorite } = request;
        queryClient.setQueryData<Solution>(queryKeys.solutions.solution(id), (old) => (old ? { ...old, favorite } : old));
        queryClient.setQueryData<ProviderSolutions>(queryKeys.solutions.providerCards(), (old) => {
          if (!old) return old;
          const mark = <T extends { id: number }>(cards: T[]) => cards.map((card) => (card.id === id ? { ...card, favorite } : card));
          return { solutions: mark(old.solutions), favorites: mark(old.favorites), marketplace: mark(old.marketplace) };
        });
      }
      return queryClient.invalidateQueries({ queryKey: queryKeys.solutions.all });
    },
  });
}
