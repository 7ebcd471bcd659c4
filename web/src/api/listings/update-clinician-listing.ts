import { apiRequest } from '@/lib/api-client';
import { anyDue, useListingMutation } from './listing-mutation';
import type { ClinicianListing, ClinicianPatch } from './types';

/** PATCH /dpcproviders/clinicians/{id} with only the fields that change. */
export function updateClinicianListing({ id, patch }: { id: number; patch: ClinicianPatch }): Promise<ClinicianListing> {
  return apiRequest<ClinicianListing>(`/dpcproviders/clinicians/${id}`, { method: 'PATCH', body: patch });
}

export function useUpdateClinicianListing() {
  return useListingMutation(updateClinicianListing, (listings, clinician) => {
    const clinicians = listings.clinicians.map((item) => (item.id === clinician.id ? clinician : item));
    return { ...listings, clinicians, due: anyDue({ locations: listings.locations, clinicians }) };
  });
}
