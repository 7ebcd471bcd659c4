import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { MarketItem } from './types';

/** GET /member/app/market/location/{locationId}/preview: the card shown in a map info window. */
export function getLocationPreview(locationId: number, signal?: AbortSignal): Promise<MarketItem> {
  return apiRequest<MarketItem>(`/member/app/market/location/${locationId}/preview`, { signal });
}

export function locationPreviewQueryOptions(locationId: number) {
  return queryOptions({
    queryKey: queryKeys.market.preview(locationId),
    queryFn: ({ signal }) => getLocationPreview(locationId, signal),
  });
}

export function useLocationPreview(locationId: number | null) {
  return useQuery({ ...locationPreviewQueryOptions(locationId ?? 0), enabled: locationId !== null });
}
