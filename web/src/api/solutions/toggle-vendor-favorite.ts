import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';

export type VendorFavoriteRequest = { entity: 'vendor'; vendor: number; favorite: boolean } | { entity: 'solution'; solution: number; favorite: boolean };

/** POST /dpcproviders/market/favorite: marks a vendor or solution as a favourite. */
export function toggleVendorFavorite(request: VendorFavoriteRequest): Promise<unknown> {
  return apiRequest<unknown>('/dpcproviders/market/favorite', { method: 'POST', body: request });
}

export function useToggleVendorFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleVendorFavorite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.solutions.all }),
  });
}
