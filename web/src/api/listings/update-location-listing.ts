import { apiRequest } from '@/lib/api-client';
import { anyDue, useListingMutation } from './listing-mutation';
import type { LocationListing, LocationPatch } from './types';

/** PATCH /dpcproviders/locations/{id} with only the fields that change. */
export function updateLocationListing({ id, patch }: { id: number; patch: LocationPatch }): Promise<LocationListing> {
  return apiRequest<LocationListing>(`/dpcproviders/locations/${id}`, { method: 'PATCH', body: patch });
}

export function useUpdateLocationListing() {
  return useListingMutation(updateLocationListing, (listings, location) => {
    const locations = listings.locations.map((item) => (item.id === location.id ? location : item));
    return { ...listings, locations, due: anyDue({ locations, clinicians: listings.clinicians }) };
  });
}
