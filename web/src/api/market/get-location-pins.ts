import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import { pinQuery } from './pin-query';
import type { Bounds, PinFilters, PinsResponse } from './types';

/** GET /member/app/market/location/pins: every clinic pin inside the map box (up to the limit). */
export function getLocationPins(bounds: Bounds, filters: PinFilters, signal?: AbortSignal): Promise<PinsResponse> {
  return apiRequest<PinsResponse>('/member/app/market/location/pins', {
    signal,
    query: pinQuery(bounds, filters),
  });
}

export function locationPinsQueryOptions(bounds: Bounds, filters: PinFilters) {
  return queryOptions({
    queryKey: queryKeys.market.pins(bounds, filters),
    queryFn: ({ signal }) => getLocationPins(bounds, filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

export function useLocationPins(bounds: Bounds | null, filters: PinFilters, enabled: boolean) {
  return useQuery({
    ...locationPinsQueryOptions(bounds ?? { nwLng: 0, nwLat: 0, seLng: 0, seLat: 0 }, filters),
    enabled: enabled && bounds !== null,
  });
}
