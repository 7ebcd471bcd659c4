import type { SearchFilters } from '@/api/market/types';
import type { SearchMetadata } from '@/api/market/record-metadata';
import { activeFilterChips } from './filters';

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
