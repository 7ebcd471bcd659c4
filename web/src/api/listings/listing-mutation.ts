import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import type { Listings } from './types';

/**
 * A listing edit: writes what the server answered into the listings document, and drops the
 * marketplace's cached searches and profiles, which now read differently.
 */
export function useListingMutation<A, R>(mutationFn: (args: A) => Promise<R>, merge: (listings: Listings, answer: R) => Listings) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (answer) => {
      queryClient.setQueryData<Listings>(queryKeys.providers.listings(), (listings) => (listings ? merge(listings, answer) : listings));
      void queryClient.invalidateQueries({ queryKey: queryKeys.market.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.profiles.all });
    },
  });
}

/** Whether any listing of the document is past due. */
export function anyDue(listings: Pick<Listings, 'locations' | 'clinicians'>): boolean {
  return [...listings.locations, ...listings.clinicians].some((item) => item.due);
}
