import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/api/query-keys';
import type { Prediction } from './types';

/** GET /member/app/market/locations/autocomplete: ZIP, city and clinic suggestions. */
export function autocompleteLocations(input: string, signal?: AbortSignal): Promise<{ predictions: Prediction[] }> {
  return apiRequest<{ predictions: Prediction[] }>('/member/app/market/locations/autocomplete', { signal, query: { input } });
}

export function autocompleteQueryOptions(input: string) {
  return queryOptions({
    queryKey: queryKeys.market.autocomplete(input.trim().toLowerCase()),
    queryFn: ({ signal }) => autocompleteLocations(input.trim(), signal),
    placeholderData: keepPreviousData,
    staleTime: 10 * 60_000,
  });
}

/** Suggestions once at least two characters are typed. */
export function useAutocompleteLocations(input: string) {
  return useQuery({ ...autocompleteQueryOptions(input), enabled: input.trim().length >= 2 });
}
