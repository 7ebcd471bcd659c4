import { apiRequest } from '@/lib/api-client';
import { activeFilterChips } from '../utils/filters';
import type { SearchFilters } from './types';

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

/** Builds the record of a search, or of a waitlist joined from it. */
export function searchMetadata({
  address,
  filters,
  results,
  employer,
  waitlisted = null,
  email = null,
}: {
  address: string;
  filters: SearchFilters;
  results: number | null;
  employer: string | null;
  /** The clinic whose waitlist was joined ('' for a notify-me near the address); null: a search. */
  waitlisted?: string | null;
  email?: string | null;
}): SearchMetadata {
  return {
    addressSearched: address,
    filterSearch: activeFilterChips(filters)
      .map((chip) => chip.label)
      .join(', '),
    resultsReturned: (results ?? 0) > 0,
    results,
    employer,
    addedtoWaitlist: waitlisted !== null,
    organizationWaitlisted: waitlisted || null,
    email,
    number: 5,
  };
}

/** POST /member/app/metadata: fire and forget (the answer is not shown; failures are only logged). */
export function recordMetadata(record: SearchMetadata): void {
  apiRequest('/member/app/metadata', { method: 'POST', body: record }).catch((failure: unknown) => console.info('metadata not recorded', failure));
}
