import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useMemberInfo } from '@/lib/member';
import { lastMarketSearch, lastSearchOrigin } from '@/lib/storage';
import { searchReducer, type SearchAction, type SearchState } from '../utils/search-state';
import { decodeSearchState, encodeSearchState, namesSearch, SEARCH_PARAMS, searchQueryOnly } from '../utils/search-url';

/** Applies a search action; `replace` completes the current history entry instead of adding one. */
export type SearchDispatch = (action: SearchAction, options?: { replace?: boolean }) => void;

const originKey = (state: SearchState) => (state.origin ? `${state.origin.lat},${state.origin.lng}` : '');

/**
 * The marketplace search, read from and written to the URL: each search, filter change, page and
 * tab is a history entry, so Back, a reload and a shared link restore it. Opened without a search,
 * the page starts from the member's last search, else their home ZIP code (or their clinic's).
 */
export function useSearchState() {
  const [params, setParams] = useSearchParams();
  const decoded = useMemo(() => decodeSearchState(params), [params]);

  // The map recentres on a new origin, except one the map itself moved to (Update Search).
  const [movedTo, setMovedTo] = useState<string | null>(null);
  const [recentre, setRecentre] = useState(() => ({ key: originKey(decoded), searchId: 0 }));
  let searchId = recentre.searchId;
  if (recentre.key !== originKey(decoded)) {
    searchId = movedTo === originKey(decoded) ? recentre.searchId : recentre.searchId + 1;
    setRecentre({ key: originKey(decoded), searchId });
  }
  const state = useMemo(() => ({ ...decoded, searchId }), [decoded, searchId]);

  // Actions that follow a wait (geocoding) apply to the URL as it is then, not as it was when the
  // wait began: the latest parameters are read through a ref. The router applies navigations in a
  // transition, so a render may still show a URL from before this hook's last writes: those
  // writes stay the latest until the router shows the last of them, and only a URL this hook did
  // not write (Back, a link) replaces them.
  const latestParams = useRef(params);
  const renderedParams = useRef(params);
  const pendingWrites = useRef<string[]>([]);
  if (renderedParams.current !== params) {
    renderedParams.current = params;
    const shown = pendingWrites.current.indexOf(params.toString());
    pendingWrites.current = shown >= 0 ? pendingWrites.current.slice(shown + 1) : [];
    if (pendingWrites.current.length === 0) latestParams.current = params;
  }
  const write = useCallback(
    (next: URLSearchParams, replace: boolean) => {
      latestParams.current = next;
      pendingWrites.current.push(next.toString());
      setParams(next, { replace });
    },
    [setParams],
  );
  const dispatch: SearchDispatch = useCallback(
    (action, options) => {
      const current = latestParams.current;
      const next = encodeSearchState(searchReducer(decodeSearchState(current), action), current);
      if (next.toString() === current.toString()) return;
      if (action.type === 'move') setMovedTo(originKey(decodeSearchState(next)));
      write(next, options?.replace ?? false);
    },
    [write],
  );

  /**
   * Sets (or, with null, removes) a parameter that is not part of the search (the employer)
   * through the same writes as the search, so neither overwrites the other.
   */
  const setParam = useCallback(
    (name: string, value: string | null) => {
      const current = latestParams.current;
      if (current.get(name) === value || (value === null && !current.has(name))) return;
      const next = new URLSearchParams(current);
      if (value === null) next.delete(name);
      else next.set(name, value);
      write(next, true);
    },
    [write],
  );

  // Arriving without a search: the last one, else the member's home (or clinic) ZIP code.
  const member = useMemberInfo();
  const homeZip = member.data?.zipCode?.trim() || member.data?.location?.zip?.trim() || null;
  const hasSearch = namesSearch(params);
  useEffect(() => {
    if (hasSearch) return;
    const last = lastMarketSearch.get();
    if (!last && !homeZip) return;
    // The member may have searched since this render (router's own updater would see this
    // render's parameters): their search stands.
    const current = latestParams.current;
    if (namesSearch(current)) return;
    const next = new URLSearchParams(current);
    if (last) for (const [name, value] of new URLSearchParams(last)) next.append(name, value);
    else if (homeZip) next.set(SEARCH_PARAMS.location, homeZip);
    write(next, true);
  }, [hasSearch, homeZip, write]);

  // The search is kept as the last one; profiles measure distances from its origin.
  useEffect(() => {
    if (!hasSearch) return;
    lastMarketSearch.set(searchQueryOnly(params));
    lastSearchOrigin.set(decoded.origin);
  }, [hasSearch, params, decoded.origin]);

  // A search is on its way to the URL (the last one, or the member's ZIP code once known): the
  // page paints the results' skeleton rather than the welcome screen it would replace.
  const restoring = !hasSearch && (lastMarketSearch.get() !== null || homeZip !== null || member.isLoading);

  return [state, dispatch, restoring, setParam] as const;
}
