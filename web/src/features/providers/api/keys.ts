/** Query keys of the provider profiles. */
import type { LatLng } from './types';

export const providerKeys = {
  all: ['providers'] as const,
  clinic: (organisationId: number, locationId: number | null, dependentId: number | null = null) => [...providerKeys.all, 'clinic', organisationId, locationId, dependentId] as const,
  clinician: (clinicianId: number, origin: LatLng | null) => [...providerKeys.all, 'clinician', clinicianId, origin] as const,
};
