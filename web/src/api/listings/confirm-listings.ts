import { apiRequest } from '@/lib/api-client';
import { useListingMutation } from './listing-mutation';
import type { Listings } from './types';

/** POST /dpcproviders/listings/attest: "Everything is correct", every listing confirmed now. */
export function confirmListings(): Promise<Listings> {
  return apiRequest<Listings>('/dpcproviders/listings/attest', { method: 'POST', body: {} });
}

export function useConfirmListings() {
  return useListingMutation(confirmListings, (_, listings) => listings);
}
