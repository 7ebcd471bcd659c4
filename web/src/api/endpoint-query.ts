import { queryOptions, useQuery, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * A filter list endpoint (`GET path?alias=`: credentials, specialities): the fetcher, its query
 * options (kept half an hour) and its hook, which waits while `enabled` is false.
 */
export function filterListEndpoint<K extends QueryKey>(path: string, key: (alias: string | null) => K) {
  const get = (alias: string | null, signal?: AbortSignal) => apiRequest<string[]>(path, { signal, query: { alias } });
  const options = (alias: string | null) => queryOptions({ queryKey: key(alias), queryFn: ({ signal }) => get(alias, signal), staleTime: 30 * 60_000 });
  function useFilterList(alias: string | null, enabled = true) {
    return useQuery({ ...options(alias), enabled });
  }
  return { get, options, use: useFilterList };
}

/** An endpoint that reads one record by its id (`GET path(id)`): the fetcher, its query options and its hook. */
export function recordEndpoint<T>(path: (id: number) => string, key: (id: number) => QueryKey) {
  const get = (id: number, signal?: AbortSignal) => apiRequest<T>(path(id), { signal });
  const options = (id: number) => queryOptions({ queryKey: key(id), queryFn: ({ signal }) => get(id, signal) });
  function useRecord(id: number) {
    return useQuery(options(id));
  }
  return { get, options, use: useRecord };
}
