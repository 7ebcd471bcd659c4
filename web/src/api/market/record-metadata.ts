import { apiRequest } from '@/lib/api-client';

/** The analytics metadata record (spec section 3); `number` is fixed at 5. */
export interface SearchMetadata {
  addressSearched: string;
  filterSearch: string;
  resultsReturned: boolean;
  results: number | null;
  employer: string | null;
  addedtoWaitlist: boolean;
  organizationWaitlisted: string | null;
  email: string | null;
  number: 5;
}

/** POST /member/app/metadata: fire and forget (the answer is not shown; failures are only logged). */
export function recordMetadata(record: SearchMetadata): void {
  apiRequest('/member/app/metadata', { method: 'POST', body: record }).catch((failure: unknown) => console.info('metadata not recorded', failure));
}
