import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { recordMetadata } from '@/api/market/record-metadata';
import { useSearchMarket } from '@/api/market/search-market';
import type { Employer } from '@/api/market/types';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useMemberInfo } from '@/lib/member';
import { useSignedIn } from '@/lib/session';
import { searchMetadata } from '../utils/search-metadata';
import type { SearchState } from '../utils/search-state';
import type { SearchDispatch } from './use-search-state';

interface MarketResultsInput {
  state: SearchState;
  dispatch: SearchDispatch;
  employer: Employer | null;
  alias: string | null;
  /** A family member chosen to act on: their own search (and card states). */
  dependentId: number | null;
}

/**
 * The search query (run once an employer is chosen) with what follows it: a 401 goes to the
 * start page, and each search's analytics record is sent once per search, not per page.
 */
export function useMarketResults({ state, dispatch, employer, alias, dependentId }: MarketResultsInput) {
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const memberInfo = useMemberInfo();

  // Favorites is a signed-in filter; a link or a search kept from a signed-in visit drops it.
  useEffect(() => {
    if (!signedIn && state.filters.favorites) dispatch({ type: 'filters', filters: { ...state.filters, favorites: false } }, { replace: true });
  }, [signedIn, state.filters, dispatch]);

  const search = useSearchMarket(
    {
      origin: state.origin,
      page: state.page,
      filters: state.filters,
      employer: employer?.companyName ?? null,
      alias,
      userZipCode: state.userZipCode,
      dependentId: signedIn ? dependentId : null,
    },
    employer !== null,
  );
  useEffect(() => {
    if (isApiError(search.error, 401)) navigate(paths.root.path);
  }, [search.error, navigate]);

  const recordedSearch = useRef<string | null>(null);
  useEffect(() => {
    if (!search.data || search.isPlaceholderData || search.dataUpdatedAt === 0) return;
    const key = JSON.stringify([state.origin, state.address, state.filters, employer?.companyName, state.userZipCode]);
    if (recordedSearch.current === key) return;
    recordedSearch.current = key;
    recordMetadata(
      searchMetadata({ address: state.address, filters: state.filters, results: search.data.totalResults, employer: employer?.companyName ?? null, email: memberInfo.data?.email ?? null }),
    );
    // The record follows the answer; the state it describes is read with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search.data, search.isPlaceholderData]);

  return search;
}
