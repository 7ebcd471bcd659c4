import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/api/query-keys';
import { apiRequest } from '@/lib/api-client';
import type { LanguageName } from './types';

/** GET /market/languages: the languages spoken at some clinic (of a company's network), by name. */
export function getSpokenLanguages(alias: string | null, signal?: AbortSignal): Promise<LanguageName[]> {
  return apiRequest<LanguageName[]>('/market/languages', { signal, query: { alias } });
}

export function spokenLanguagesQueryOptions(alias: string | null) {
  return queryOptions({ queryKey: queryKeys.market.languages(alias), queryFn: ({ signal }) => getSpokenLanguages(alias, signal), staleTime: 30 * 60_000 });
}

export function useSpokenLanguages(alias: string | null, enabled = true) {
  return useQuery({ ...spokenLanguagesQueryOptions(alias), enabled });
}
