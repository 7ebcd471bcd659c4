import { queryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { GeocodeResponse, LatLng } from './types';

/** An address, or a point; `nearest` lets a point over open water stand on the nearest ZIP instead of a 404. */
export type GeocodeRequest = { address: string } | LatLng | (LatLng & { nearest: true });

/** POST /member/app/market/locations/geocode: an address to coordinates, or coordinates to an address. */
export function geocode(request: GeocodeRequest, signal?: AbortSignal): Promise<GeocodeResponse> {
  return apiRequest<GeocodeResponse>('/member/app/market/locations/geocode', { method: 'POST', body: request, signal });
}

/** An answer's first place as `{ location, label }`. */
export function firstPlace(response: GeocodeResponse): { location: LatLng; label: string } {
  const first = response.results[0];
  if (!first) throw new Error('No geocoding result');
  return { location: first.geometry.location, label: first.formatted_address };
}

/** The first result as `{ location, label }`. */
export async function geocodeFirst(request: GeocodeRequest): Promise<{ location: LatLng; label: string }> {
  return firstPlace(await geocode(request));
}

/**
 * An address's first place, cached by the address: the entry asks for a linked address before
 * React renders (app/first-screen.ts), and the page finds the answer here. A miss (404) is final.
 */
export function geocodeAddressQueryOptions(address: string) {
  return queryOptions({
    queryKey: queryKeys.market.geocode(address),
    queryFn: () => geocodeFirst({ address }),
    staleTime: 10 * 60_000,
    retry: false,
  });
}

export function useGeocode() {
  return useMutation({ mutationFn: geocodeFirst });
}
