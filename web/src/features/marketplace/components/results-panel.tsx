import { Suspense } from 'react';
import { FilterIcon } from '@/components/icons/icons';
import { Button } from '@/components/ui/button';
import { Pager } from '@/components/ui/pager';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import type { MarketItem, SearchResponse } from '@/api/market/types';
import { useWaitlistJoined } from '@/api/market/waitlist-joined';
import { formatCount } from '@/lib/format';
import { lazyNamed } from '@/lib/lazy';
import { cardAction, type CardAction, type MemberCardState } from '../utils/card-action';
import { activeFilterChips } from '../utils/filters';
import { FIND_MORE_MAX_PAGES, PAGE_SIZE } from '../utils/search-constants';
import type { ResultTab, SearchState } from '../utils/search-state';
import type { EmptyKind } from './empty-results';
import { ResultCard, ResultCardSkeleton } from './result-card';
import styles from './results-panel.module.css';

// An empty answer (and its notify-me form) is rare enough to be fetched when it happens.
const EmptyResults = lazyNamed(() => import('./empty-results'), 'EmptyResults');

interface ResultsPanelProps {
  state: SearchState;
  data: SearchResponse | undefined;
  loading: boolean;
  failed: boolean;
  member: MemberCardState | null;
  onTab: (tab: ResultTab) => void;
  onPage: (page: number) => void;
  onAction: (item: MarketItem, action: CardAction) => void;
  onOpenDetails: (item: MarketItem) => void;
  onHomeZipCode: (zip: string) => void;
  onOpenFilters: () => void;
  onClearFilters: () => void;
  /** Signed in: the card hearts. */
  onToggleFavorite?: (item: MarketItem) => void;
  favoriteBusy?: boolean;
  /** A set-provider call is in flight. */
  selecting?: boolean;
}

/** Skeleton cards while the first answer is on its way: as many as fill a screen, whatever its size. */
const SKELETON_CARDS = 4;

/** What a tab shows on the current page, and how many pages it has. */
export function pageContent(state: SearchState, data: SearchResponse) {
  const clinicianPages = Math.ceil(data.clinicians.length / PAGE_SIZE);
  const slice = (page: number) => data.clinicians.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  switch (state.tab) {
    case 'clinics':
      return { clinics: data.clinics, clinicians: [], totalPages: data.totalPages, page: state.page };
    case 'providers':
      return { clinics: [], clinicians: slice(state.providerPage), totalPages: clinicianPages, page: state.providerPage };
    default:
      return { clinics: data.clinics, clinicians: slice(state.page), totalPages: Math.max(data.totalPages, clinicianPages), page: state.page };
  }
}

export function ResultsPanel(props: ResultsPanelProps) {
  const { state, data, loading, failed, member, onTab, onPage } = props;
  const waitlisted = useWaitlistJoined();
  const tabs = [
    { key: 'all' as const, label: 'All', count: data ? data.totalResults + data.clinicians.length : null },
    { key: 'clinics' as const, label: 'Clinics', count: data ? data.totalResults : null },
    { key: 'providers' as const, label: 'Providers', count: data ? data.clinicians.length : null },
  ];

  let body;
  if (failed && !data) {
    body = <p className={styles.message}>Oops. Something went wrong while searching. Please try again.</p>;
  } else if (!data) {
    body = (
      <section>
        <p role="status" className="visually-hidden">
          Searching
        </p>
        {state.tab === 'all' ? <h3 className={styles.groupTitle}>Clinics &amp; organizations</h3> : null}
        <ul className={styles.list}>
          {Array.from({ length: SKELETON_CARDS }, (_, index) => (
            <li key={index}>
              <ResultCardSkeleton />
            </li>
          ))}
        </ul>
      </section>
    );
  } else {
    const content = pageContent(state, data);
    const empty = content.clinics.length === 0 && content.clinicians.length === 0;
    const filtersActive = activeFilterChips(state.filters).length > 0;
    const emptyKind: EmptyKind = state.tab === 'providers' ? 'clinicians' : filtersActive ? 'general' : 'clinics';
    const renderCard = (item: MarketItem) => (
      <li key={`${item.entity}-${item.id}-${item.locationId}`}>
        <ResultCard
          item={item}
          action={cardAction(item, member, waitlisted(item))}
          onAction={props.onAction}
          onOpenDetails={props.onOpenDetails}
          userZipCode={state.userZipCode}
          onHomeZipCode={props.onHomeZipCode}
          onToggleFavorite={props.onToggleFavorite}
          favoriteBusy={props.favoriteBusy}
          selecting={props.selecting}
        />
      </li>
    );
    body = empty ? (
      <Suspense fallback={<Spinner label="Searching" />}>
        <EmptyResults kind={emptyKind} search={{ location: state.origin, address: state.address, filters: state.filters }} onClearFilters={props.onClearFilters} />
      </Suspense>
    ) : (
      <>
        {content.clinics.length > 0 ? (
          <section aria-label="Clinics">
            {state.tab === 'all' ? <h3 className={styles.groupTitle}>Clinics &amp; organizations</h3> : null}
            <ul className={styles.list}>{content.clinics.map(renderCard)}</ul>
          </section>
        ) : null}
        {content.clinicians.length > 0 ? (
          <section aria-label="Clinicians">
            {state.tab === 'all' ? <h3 className={styles.groupTitle}>Clinicians</h3> : null}
            <ul className={styles.list}>{content.clinicians.map(renderCard)}</ul>
          </section>
        ) : null}
      </>
    );
    const pager = <Pager page={content.page} totalPages={content.totalPages} onChange={onPage} />;
    const showFindMore = content.totalPages >= 1 && content.totalPages <= FIND_MORE_MAX_PAGES && !empty;
    body = (
      <>
        {body}
        {pager}
        {showFindMore ? (
          <div className={styles.findMore}>
            <div>
              <strong>Find more providers</strong>
              <p>Widen the distance in the filters, or move the map and choose Update Search.</p>
            </div>
            <Button variant="secondary" size="sm" icon={<FilterIcon size={16} />} onClick={props.onOpenFilters}>
              Adjust filters
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className={styles.panel} aria-busy={loading}>
      <div className={styles.header}>
        <Tabs tabs={tabs} active={state.tab} onChange={onTab} label="Result types" idPrefix="results" />
        {loading && data ? <Spinner inline label="Updating results" /> : null}
      </div>
      {!data ? (
        <p className={`${styles.summary} ${styles.summaryPending}`} aria-hidden="true">
          <span>00 clinics and 00 clinicians within 00 miles</span>
        </p>
      ) : null}
      {data ? (
        <p className={styles.summary} aria-live="polite">
          {formatCount(data.totalResults)} {data.totalResults === 1 ? 'clinic' : 'clinics'} and {data.clinicians.length}
          {data.clinicians.length === 1 ? ' clinician' : ' clinicians'} within {Math.round(data.radiusMiles)} miles
          {state.address ? ` of ${state.address}` : ''}
        </p>
      ) : null}
      <div role="tabpanel" id={`results-panel-${state.tab}`} aria-labelledby={`results-tab-${state.tab}`} className={styles.body}>
        {body}
      </div>
    </div>
  );
}
