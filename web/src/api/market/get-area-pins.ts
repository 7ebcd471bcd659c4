import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import { pinQuery } from './pin-query';
import type { AreaPinsResponse, Bounds, PinFilters } from './types';

/** GET /member/app/market/location/areapins: clinic counts per map cell, for zoomed-out maps. */
export function getAreaPins(bounds: Bounds, zoom: number, filters: PinFilters, signal?: AbortSignal): Promise<AreaPinsResponse> {
  return apiRequest<AreaPinsResponse>('/member/app/market/location/areapins', {
    signal,
    query: { ...pinQuery(bounds, filters), zoom },
  });
}

export function areaPinsQueryOptions(bounds: Bounds, zoom: number, filters: PinFilters) {
  return queryOptions({
    queryKey: queryKeys.market.areaPins(bounds, zoom, filters),
    queryFn: ({ signal }) => getAreaPins(bounds, zoom, filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

export function useAreaPins(bounds: Bounds | null, zoom: number, filters: PinFilters, enabled: boolean) {
  return useQuery({
    ...areaPinsQueryOptions(bounds ?? { nwLng: 0, nwLat: 0, seLng: 0, seLat: 0 }, zoom, filters),
    enabled: enabled && bounds !== null,
  });
}
