import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FilterIcon, ListIcon, MapIcon } from '@/components/icons/icons';
import { Alert } from '@/components/ui/alert';
import { BottomBar } from '@/components/ui/bottom-bar';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { memberEmployer, useMemberInfo } from '@/lib/member';
import { useSignedIn } from '@/lib/session';
import { selectedProvider, sessionValue, storedEmployer } from '@/lib/storage';
import { useIsMobile } from '@/lib/use-media-query';
import { geocodeFirst } from '@/api/market/geocode';
import { potentialEmployersQueryOptions } from '@/api/market/get-potential-employers';
import { useCompanyAlias } from '@/api/market/resolve-company-alias';
import { useSearchMarket } from '@/api/market/search-market';
import { recordMetadata } from '@/api/market/record-metadata';
import { favoriteRequest, useToggleFavorite } from '@/api/market/toggle-favorite';
import type { Employer, LatLng, MarketItem, PinFilters, Prediction } from '@/api/market/types';
import type { CardAction, MemberCardState } from '../utils/card-action';
import { DEFAULT_FILTERS } from '../utils/filters';
import { useSearchState } from '../utils/search-state';
import { searchMetadata } from '../utils/search-metadata';
import { AddressSearch } from './address-search';
import { EmployerBanner } from './employer-banner';
import { EmployerConfirmationDialog, EmployerNeededDialog } from './employer-needed-dialog';
import { EmployerSelect } from './employer-select';
import { FilterChips } from './filter-chips';
import { FilterDrawer } from './filter-drawer';
import { ResultsPanel } from './results-panel';
import { WaitlistDialog, type WaitlistTarget } from './waitlist-dialog';
import { WelcomeIntro } from './welcome-intro';
import styles from './marketplace-page.module.css';

const MarketMap = lazy(() => import('./market-map'));

export const MARKETPLACE_TITLE = 'Advanced Primary Care powered by the provider';

/** Session storage: the Employer Confirmation dialog was answered on this visit. */
const EMPLOYER_CONFIRMED_KEY = 'employerConfirmed';

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

/** /marketplace: employer, address search, filters, results and the map. */
export function MarketplacePage({ member = null, footerSlot, headerSlot, onSelectClinic, selecting = false }: MarketplacePageProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const signedIn = useSignedIn();
  const isMobile = useIsMobile();
  const companyParam = params.get('company');
  const locationParam = params.get('location');
  // Set when Home or the family menu sends a member here to choose a provider.
  const selectingProvider = params.has('selectProvider');

  const [employer, setEmployerState] = useState<Employer | null>(() => storedEmployer.get());
  const [state, dispatch] = useSearchState();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [mobileView, setMobileView] = useState<'list' | 'map'>('list');
  const [waitlistItem, setWaitlistItem] = useState<WaitlistTarget | null>(null);
  const [geocodeError, setGeocodeError] = useState<string | null>(null);
  const [geocoding, setGeocoding] = useState(false);
  // What to do once the employer-needed prompt gets an answer.
  const pendingAction = useRef<(() => void) | null>(null);
  const [employerPromptOpen, setEmployerPromptOpen] = useState(false);

  const setEmployer = useCallback((next: Employer) => {
    setEmployerState(next);
    storedEmployer.set(next);
  }, []);

  // A signed-in member's employer is known: it is the marketplace's until another is chosen.
  const memberInfo = useMemberInfo();
  useEffect(() => {
    if (employer || companyParam) return;
    const known = memberEmployer(memberInfo.data);
    if (known) setEmployer(known);
  }, [employer, companyParam, memberInfo.data, setEmployer]);

  // A signed-in member whose account names no employer confirms one (once a visit; a custom
  // company URL names it already).
  const [employerConfirmed, setEmployerConfirmed] = useState(() => sessionValue.get<boolean>(EMPLOYER_CONFIRMED_KEY) === true);
  const employerConfirmationOpen = signedIn && !employerConfirmed && !companyParam && memberInfo.data !== undefined && memberEmployer(memberInfo.data) === null;
  const finishEmployerConfirmation = useCallback(() => {
    sessionValue.set(EMPLOYER_CONFIRMED_KEY, true);
    setEmployerConfirmed(true);
  }, []);

  // A custom company URL: resolve the alias, preselect that employer, or fall back to /marketplace.
  const companyAlias = useCompanyAlias(companyParam);
  const alias = companyAlias.data?.alias ?? null;
  useEffect(() => {
    if (companyAlias.isError) navigate(paths.marketplace.path, { replace: true });
  }, [companyAlias.isError, navigate]);
  useEffect(() => {
    const companyName = companyAlias.data?.companyName;
    if (!companyName || employer?.companyName === companyName) return;
    void queryClient.fetchQuery(potentialEmployersQueryOptions(companyName)).then((list) => {
      const match = list.find((item) => item.companyName.toLowerCase() === companyName.toLowerCase());
      setEmployer(match ?? { id: companyName, companyName, status: 'active' });
    });
  }, [companyAlias.data, employer?.companyName, queryClient, setEmployer]);

  /** Runs `action` now when an employer is chosen, otherwise after the prompt is answered. */
  const requireEmployer = useCallback(
    (action: () => void) => {
      if (employer) {
        action();
        return;
      }
      pendingAction.current = action;
      setEmployerPromptOpen(true);
    },
    [employer],
  );

  const rememberLocation = useCallback(
    (address: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('location', address);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const searchAt = useCallback(
    (origin: LatLng, address: string) => {
      setGeocodeError(null);
      dispatch({ type: 'search', origin, address });
      rememberLocation(address);
    },
    [dispatch, rememberLocation],
  );

  /** Update Search: the map's centre becomes the origin; filters stay, page 1. */
  const searchMapCenter = useCallback(
    async (center: LatLng) => {
      let label = 'Map area';
      try {
        label = (await geocodeFirst(center)).label;
      } catch (error) {
        console.info('reverse geocoding failed', error);
      }
      dispatch({ type: 'move', origin: center, address: label });
      rememberLocation(label);
    },
    [dispatch, rememberLocation],
  );

  const searchText = useCallback(
    async (text: string) => {
      setGeocoding(true);
      setGeocodeError(null);
      try {
        const place = await geocodeFirst({ address: text });
        searchAt(place.location, text);
      } catch (error) {
        console.warn('geocoding failed', error);
        setGeocodeError(isApiError(error, 404) ? `We couldn't find “${text}”. Try a city, state or ZIP code.` : 'We could not look up that address. Please try again.');
      } finally {
        setGeocoding(false);
      }
    },
    [searchAt],
  );

  // ?location=... searches there on arrival (and after a reload) unless that search is current.
  useEffect(() => {
    if (!locationParam || locationParam === state.address) return;
    requireEmployer(() => void searchText(locationParam));
    // Only a new location parameter starts this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locationParam]);

  // Favorites is a signed-in filter; a search state kept from a signed-in visit drops it.
  useEffect(() => {
    if (!signedIn && state.filters.favorites) dispatch({ type: 'filters', filters: { ...state.filters, favorites: false } });
  }, [signedIn, state.filters, dispatch]);

  const favorite = useToggleFavorite();
  const search = useSearchMarket(
    {
      origin: state.origin,
      page: state.page,
      filters: state.filters,
      employer: employer?.companyName ?? null,
      alias,
      userZipCode: state.userZipCode,
      // A family member chosen to act on: their own search (and card states).
      dependentId: signedIn ? (member?.dependentId ?? null) : null,
    },
    employer !== null,
  );
  useEffect(() => {
    if (isApiError(search.error, 401)) navigate(paths.root.path);
  }, [search.error, navigate]);

  // Each search's analytics record (address, filters, how many results), once per search, not per page.
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

  const pinFilters: PinFilters = {
    newPatients: state.filters.newPatients,
    pediatrics: state.filters.pediatrics,
    employer: employer?.companyName ?? null,
    alias,
  };

  function openDetails(item: MarketItem) {
    requireEmployer(() => {
      if (item.entity === 'provider') navigate(paths.clinicianProfile.getHref(item.id));
      else navigate(paths.clinicProfile.getHref(item.id, item.locationId));
    });
  }

  function onCardAction(item: MarketItem, action: CardAction) {
    switch (action.kind) {
      case 'details':
        openDetails(item);
        return;
      case 'waitlist':
        setWaitlistItem({ locationId: item.locationId, name: item.name });
        return;
      case 'select':
        requireEmployer(() => {
          if (onSelectClinic) {
            onSelectClinic(item);
            return;
          }
          selectedProvider.set({ providerId: item.id, locationId: item.locationId, name: item.name, locationName: item.locationName });
          navigate(signedIn ? paths.clinicProfile.getHref(item.id, item.locationId) : paths.register.path);
        });
        return;
      case 'confirm-eligibility':
        navigate(paths.confirmPlanInformation.path);
        return;
      default:
        return;
    }
  }

  function onPrediction(prediction: Prediction) {
    if (prediction.id !== undefined && prediction.locationId !== undefined) {
      requireEmployer(() => navigate(paths.clinicProfile.getHref(prediction.id!, prediction.locationId)));
    } else if (prediction.location) {
      const location = prediction.location;
      requireEmployer(() => searchAt(location, prediction.description));
    }
  }

  function searchFromMyLocation() {
    if (!('geolocation' in navigator)) {
      console.info('geolocation is not supported');
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const origin = { lat: position.coords.latitude, lng: position.coords.longitude };
        requireEmployer(() => {
          void geocodeFirst(origin)
            .then((place) => searchAt(origin, place.label))
            .catch(() => searchAt(origin, 'My location'));
        });
      },
      (error) => console.info('geolocation unavailable', error.message),
    );
  }

  const searched = state.origin !== null;
  const showMap = !isMobile || mobileView === 'map';
  const showList = !isMobile || mobileView === 'list';

  return (
    <div className={styles.page}>
      <header className={styles.top}>
        <h1 className={styles.title}>{MARKETPLACE_TITLE}</h1>
        <div className={styles.controls}>
          <div className={styles.employer}>
            <EmployerSelect employer={employer} onChange={setEmployer} />
          </div>
          <div className={styles.address}>
            <AddressSearch
              initialValue={state.address}
              busy={geocoding}
              error={geocodeError}
              onPlace={(place) => requireEmployer(() => searchAt(place.location, place.label))}
              onText={(text) => requireEmployer(() => void searchText(text))}
              onClinic={onPrediction}
              onMyLocation={searchFromMyLocation}
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
        {employer ? <EmployerBanner employer={employer} /> : null}
        <FilterChips filters={state.filters} onChange={(filters) => dispatch({ type: 'filters', filters })} />
      </header>

      {isMobile ? (
        <BottomBar className={styles.viewToggle}>
          <Button
            variant="primary"
            icon={mobileView === 'list' ? <MapIcon size={18} /> : <ListIcon size={18} />}
            onClick={() => setMobileView((view) => (view === 'list' ? 'map' : 'list'))}
          >
            {mobileView === 'list' ? 'View Map' : 'View List'}
          </Button>
        </BottomBar>
      ) : null}

      <div className={`${styles.layout} ${isMobile ? styles.mobile : ''}`}>
        {showList ? (
          <div className={styles.listColumn} id="results-top">
            {searched && employer ? (
              <ResultsPanel
                state={state}
                data={search.data}
                loading={search.isFetching}
                failed={search.isError}
                member={member}
                onTab={(tab) => dispatch({ type: 'tab', tab })}
                onPage={(page) => {
                  dispatch({ type: 'page', page });
                  document.getElementById('results-top')?.scrollIntoView({ block: 'start' });
                }}
                onAction={onCardAction}
                onOpenDetails={openDetails}
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
        {showMap ? (
          <div className={styles.mapColumn}>
            <Suspense fallback={<Spinner label="Loading map" />}>
              <MarketMap
                origin={state.origin}
                searchId={state.searchId}
                pinFilters={pinFilters}
                onUpdateSearch={(center) => requireEmployer(() => void searchMapCenter(center))}
                onOpenClinic={(organisationId, locationId) => requireEmployer(() => navigate(paths.clinicProfile.getHref(organisationId, locationId)))}
              />
            </Suspense>
          </div>
        ) : null}
      </div>

      <FilterDrawer
        open={filtersOpen}
        onClose={() => setFiltersOpen(false)}
        filters={state.filters}
        alias={alias}
        onApply={(filters) => requireEmployer(() => dispatch({ type: 'filters', filters }))}
      />
      <WaitlistDialog item={waitlistItem} onClose={() => setWaitlistItem(null)} search={{ location: state.origin, address: state.address, filters: state.filters }} />
      <EmployerConfirmationDialog
        open={employerConfirmationOpen && !employerPromptOpen}
        current={employer}
        onClose={finishEmployerConfirmation}
        onChosen={(chosen) => {
          setEmployer(chosen);
          finishEmployerConfirmation();
        }}
      />
      <EmployerNeededDialog
        open={employerPromptOpen}
        onClose={() => {
          pendingAction.current = null;
          setEmployerPromptOpen(false);
        }}
        onChosen={(chosen) => {
          setEmployer(chosen);
          setEmployerPromptOpen(false);
          const action = pendingAction.current;
          pendingAction.current = null;
          // Let the employer reach state before the action reads it.
          if (action) window.setTimeout(action, 0);
        }}
      />
    </div>
  );
}
