import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { providerKeys } from './keys';

export type FavoriteRequest = { entity: 'location'; location: number; favorite: boolean } | { entity: 'provider'; provider: number; favorite: boolean };

/** POST /member/app/market/favorite: marks a clinic location or clinician as a favourite. */
export function toggleFavorite(request: FavoriteRequest): Promise<unknown> {
  return apiRequest<unknown>('/member/app/market/favorite', { method: 'POST', body: request });
}

/** The heart flips only after the server accepts (the profiles are refetched through their keys). */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleFavorite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: providerKeys.all }),
  });
}
