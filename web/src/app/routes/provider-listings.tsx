import { ListingsPage } from '@/features/provider-listings/components/listings-page';

/** /dpc-providers/listings: the organisation's listings, edited and confirmed by the clinic. */
export const ProviderListingsRoute = ListingsPage;
