import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import type { GeocodeResponse, LatLng } from './types';

/** An address, or a point; `nearest` lets a point over open water stand on the nearest ZIP instead of a 404. */
export type GeocodeRequest = { address: string } | LatLng | (LatLng & { nearest: true });

/** POST /member/app/market/locations/geocode: an address to coordinates, or coordinates to an address. */
export function geocode(request: GeocodeRequest, signal?: AbortSignal): Promise<GeocodeResponse> {
  return apiRequest<GeocodeResponse>('/member/app/market/locations/geocode', { method: 'POST', body: request, signal });
}

/** The first result as `{ location, label }`. */
export async function geocodeFirst(request: GeocodeRequest): Promise<{ location: LatLng; label: string }> {
  const response = await geocode(request);
  const first = response.results[0];
  if (!first) throw new Error('No geocoding result');
  return { location: first.geometry.location, label: first.formatted_address };
}

export function useGeocode() {
  return useMutation({ mutationFn: geocodeFirst });
}
