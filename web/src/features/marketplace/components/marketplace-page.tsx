import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { favoriteRequest, useToggleFavorite } from '@/api/market/toggle-favorite';
import type { MarketItem, PinFilters } from '@/api/market/types';
import { FilterIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useSignedIn } from '@/lib/session';
import { usePageSkipLink } from '@/components/layouts/skip-links';
import { lazyNamed, useOpenedOnce } from '@/lib/lazy';
import { useIsMobile } from '@/lib/use-media-query';
import type { MemberCardState } from '../utils/card-action';
import { DEFAULT_FILTERS } from '../utils/filters';
import { AddressSearch } from './address-search';
import { EmployerBanner, EmployerBannerPlaceholder } from './employer-banner';
import { EmployerSelect } from './employer-select';
import { FilterChips } from './filter-chips';
import { MapListToggle, useMapListView } from './map-list-toggle';
import { ResultsPanel } from './results-panel';
import { useCardActions } from './use-card-actions';
import { useEmployerConfirmation } from './use-employer-confirmation';
import { useEmployerGate } from './use-employer-gate';
import { useLocationSearch } from './use-location-search';
import { useMarketResults } from './use-market-results';
import { useMarketplaceEmployer } from './use-marketplace-employer';
import { useSearchState } from './use-search-state';
import { WelcomeIntro } from './welcome-intro';
import styles from './marketplace-page.module.css';

const loadMarketMap = () => import('./market-map');
/** The map's element, the target of "Skip to map". */
const MAP_ID = 'market-map';
const MarketMap = lazy(loadMarketMap);
// The drawer and the dialogs are fetched the first time they open, keeping them out of the first download.
const FilterDrawer = lazyNamed(() => import('./filter-drawer'), 'FilterDrawer');
const WaitlistDialog = lazyNamed(() => import('./waitlist-dialog'), 'WaitlistDialog');
const employerDialogs = () => import('./employer-needed-dialog');
const EmployerConfirmationDialog = lazyNamed(employerDialogs, 'EmployerConfirmationDialog');
const EmployerNeededDialog = lazyNamed(employerDialogs, 'EmployerNeededDialog');

export const MARKETPLACE_TITLE = 'Advanced Primary Care powered by the provider';

interface MarketplacePageProps {
  /** The member's enrolment state for card buttons; null while signed out. */
  member?: MemberCardState | null;
  /** Content shown below the results (the solutions categories, from another feature). */
  footerSlot?: ReactNode;
  /** Content under the search controls (the member picker, from the enrolment feature). */
  headerSlot?: ReactNode;
  /**
   * Select on a clinic card, once an employer is chosen (the enrolment flow, composed by the
   * route). Without it, Select stores the clinic and goes to /register.
   */
  onSelectClinic?: (item: MarketItem) => void;
  /** A set-provider call is in flight: Select buttons wait. */
  selecting?: boolean;
}

/**
 * The map's frame while its code loads or the search's origin is worked out: the water colour, no
 * jump; busy, like the map until its first pins are drawn.
 */
function MapPlaceholder() {
  return (
    <div className={styles.mapPlaceholder} id={MAP_ID} tabIndex={-1} aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading map
      </span>
    </div>
  );
}

/** /marketplace: employer, address search, filters, results and the map. */
export function MarketplacePage({ member = null, footerSlot, headerSlot, onSelectClinic, selecting = false }: MarketplacePageProps) {
  const [params] = useSearchParams();
  const signedIn = useSignedIn();
  const isMobile = useIsMobile();
  const companyParam = params.get('company');
  // Set when Home or the family menu sends a member here to choose a provider.
  const selectingProvider = params.has('selectProvider');

  const [urlState, dispatch, restoring, setParam] = useSearchState();
  const { employer, setEmployer, alias, pending: employerPending } = useMarketplaceEmployer(companyParam, setParam);
  const employerConfirmation = useEmployerConfirmation(companyParam);
  const gate = useEmployerGate(employer, setEmployer);
  const { requireEmployer } = gate;
  // A linked or restored address waits while the employer is worked out or being confirmed.
  const location = useLocationSearch({ dispatch, state: urlState, requireEmployer, employerPending: employerPending || employerConfirmation.open });
  // A linked address's place, known and not yet in the URL: the page searches from it at once
  // (the URL catches up in the same history entry), instead of after another navigation.
  const linkedOrigin = urlState.origin === null && employer ? location.linkedOrigin : null;
  const state = useMemo(() => (linkedOrigin ? { ...urlState, origin: linkedOrigin } : urlState), [urlState, linkedOrigin]);
  const search = useMarketResults({ state, dispatch, employer, alias, dependentId: member?.dependentId ?? null });
  const cards = useCardActions({ requireEmployer, onSelectClinic, searchAt: location.searchAt });
  const favorite = useToggleFavorite();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const view = useMapListView(isMobile);
  const confirmationOpen = employerConfirmation.open && !gate.promptOpen;
  const filtersLoaded = useOpenedOnce(filtersOpen);
  const waitlistLoaded = useOpenedOnce(cards.waitlistItem !== null);
  const confirmationLoaded = useOpenedOnce(confirmationOpen);
  const promptLoaded = useOpenedOnce(gate.promptOpen);

  // A search is named (by the link, the last visit or the member's ZIP code) and an employer is
  // known or on its way: the page paints the results' final layout at once, with skeleton cards,
  // and the map waits for the origin instead of showing the whole country first.
  const searchNamed = state.origin !== null || (state.address !== '' && !location.geocodeError) || restoring;
  const showResults = searchNamed && (employer !== null || employerPending);
  const awaitingOrigin = showResults && state.origin === null;
  // "Skip to map", right after "Skip to content": the pins are three Tab presses from the top.
  usePageSkipLink(MAP_ID, 'Skip to map', view.showMap);
  // The map's code is fetched while the origin is worked out, so it draws as soon as it is known.
  useEffect(() => {
    if (view.showMap) void loadMarketMap();
  }, [view.showMap]);

  // The map asks the list's question: every filter, the employer, the alias and the origin.
  const pinFilters: PinFilters = { filters: state.filters, employer: employer?.companyName ?? null, alias, origin: state.origin, userZipCode: state.userZipCode };

  return (
    <div className={styles.page}>
      <header className={styles.top}>
        <h1 className={styles.title}>{MARKETPLACE_TITLE}</h1>
        <div className={styles.controls}>
          <div className={styles.employer}>
            <EmployerSelect employer={employer} onChange={setEmployer} pending={employerPending} />
          </div>
          <div className={styles.address}>
            <AddressSearch
              initialValue={state.address}
              busy={location.geocoding}
              error={location.geocodeError}
              onPlace={(place) => requireEmployer(() => location.searchAt(place.location, place.label))}
              onText={(text) => requireEmployer(() => void location.searchText(text))}
              onClinic={cards.onPrediction}
              onMyLocation={location.searchFromMyLocation}
            />
          </div>
          <Button variant="secondary" icon={<FilterIcon size={18} />} onClick={() => setFiltersOpen(true)} className={styles.filterButton}>
            Filter
          </Button>
        </div>
        {headerSlot}
        {selectingProvider ? (
          <Alert tone="info">
            Choose a clinic below and press Select to make it {member?.dependentId ? `${member.firstName || member.name}'s` : 'your'} provider.
          </Alert>
        ) : null}
        {employer ? <EmployerBanner employer={employer} /> : employerPending ? <EmployerBannerPlaceholder /> : null}
        <FilterChips filters={state.filters} onChange={(filters) => dispatch({ type: 'filters', filters })} />
      </header>

      {isMobile ? <MapListToggle view={view.mobileView} onToggle={view.toggle} /> : null}

      <div className={styles.layout}>
        {view.showList ? (
          <div className={styles.listColumn} id="results-top">
            {showResults ? (
              <ResultsPanel
                state={state}
                data={employer && state.origin ? search.data : undefined}
                loading={search.isFetching || awaitingOrigin}
                failed={search.isError}
                member={member}
                onTab={(tab) => dispatch({ type: 'tab', tab })}
                onPage={(page) => {
                  dispatch({ type: 'page', page });
                  document.getElementById('results-top')?.scrollIntoView({ block: 'start' });
                }}
                onAction={cards.onCardAction}
                onOpenDetails={cards.openDetails}
                onHomeZipCode={(zip) => dispatch({ type: 'userZipCode', zip })}
                onOpenFilters={() => setFiltersOpen(true)}
                onClearFilters={() => dispatch({ type: 'filters', filters: DEFAULT_FILTERS })}
                onToggleFavorite={signedIn ? (item) => favorite.mutate(favoriteRequest(item, !item.favorite)) : undefined}
                favoriteBusy={favorite.isPending}
                selecting={selecting}
              />
            ) : (
              <WelcomeIntro />
            )}
            {footerSlot}
          </div>
        ) : null}
        {view.showMap ? (
          <div className={styles.mapColumn}>
            {awaitingOrigin ? (
              <MapPlaceholder />
            ) : (
            <Suspense fallback={<MapPlaceholder />}>
              <MarketMap
                id={MAP_ID}
                origin={state.origin}
                searchId={state.searchId}
                pinFilters={pinFilters}
                onUpdateSearch={(center) => requireEmployer(() => void location.searchMapCenter(center))}
                onOpenClinic={cards.openClinic}
              />
            </Suspense>
            )}
          </div>
        ) : null}
      </div>

      <Suspense fallback={null}>
        {filtersLoaded ? (
          <FilterDrawer
            open={filtersOpen}
            onClose={() => setFiltersOpen(false)}
            filters={state.filters}
            alias={alias}
            onApply={(filters) => requireEmployer(() => dispatch({ type: 'filters', filters }))}
          />
        ) : null}
        {waitlistLoaded ? (
          <WaitlistDialog item={cards.waitlistItem} onClose={cards.closeWaitlist} search={{ location: state.origin, address: state.address, filters: state.filters }} />
        ) : null}
        {confirmationLoaded ? (
          <EmployerConfirmationDialog
            open={confirmationOpen}
            current={employer}
            onClose={employerConfirmation.finish}
            onChosen={(chosen) => {
              setEmployer(chosen);
              employerConfirmation.finish();
            }}
          />
        ) : null}
        {promptLoaded ? <EmployerNeededDialog open={gate.promptOpen} onClose={gate.cancel} onChosen={gate.choose} /> : null}
      </Suspense>
    </div>
  );
}
