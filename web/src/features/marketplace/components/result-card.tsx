import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { clinicProfileQueryOptions } from '@/api/market/get-clinic-profile';
import { geocode } from '@/api/market/geocode';
import { isApiError } from '@/lib/api-client';
import { HeartIcon, PinIcon } from '@/components/icons/icons';
import { Button } from '@/components/ui/button';
import { CareModalities } from '@/components/ui/care-modalities';
import { LogoAvatar } from '@/components/ui/logo-avatar';
import { formatMiles, genderLabel, truncate } from '@/lib/format';
import { notVerifiedRecently } from '@/lib/listing-freshness';
import type { MarketItem } from '@/api/market/types';
import { actionName, cardTitle, entityLabel, type CardAction } from '../utils/card-action';
import styles from './result-card.module.css';

/** Card names are cut at 20 characters, addresses at 19. */
export const CARD_NAME_MAX = 20;
export const CARD_ADDRESS_MAX = 19;

const ZIP_PATTERN = /^\d{5}(-\d{4})?$/;

interface ResultCardProps {
  item: MarketItem;
  action: CardAction;
  onAction: (item: MarketItem, action: CardAction) => void;
  onOpenDetails: (item: MarketItem) => void;
  /** For multi-location (virtual) organisations: the home zip code the search used, if any. */
  userZipCode?: string | null;
  onHomeZipCode?: (zip: string) => void;
  /** Signed in: the heart that marks the card a favourite (absent when signed out). */
  onToggleFavorite?: (item: MarketItem) => void;
  favoriteBusy?: boolean;
  /** A set-provider call is in flight: Select waits. */
  selecting?: boolean;
}

/** A clinic or clinician in the result list. */
export function ResultCard({ item, action, onAction, onOpenDetails, userZipCode, onHomeZipCode, onToggleFavorite, favoriteBusy = false, selecting = false }: ResultCardProps) {
  const label = entityLabel(item);
  const isProvider = item.entity === 'provider';
  const { name, place: locationName, full: title } = cardTitle(item);
  const distance = formatMiles(item.distance);
  const gender = genderLabel(item.gender);
  const availability = item.newPatients ? 'Accepting new patients' : 'Not accepting new patients';
  const place = [item.city, [item.state, item.zipCode].filter(Boolean).join(' ')].filter(Boolean).join(', ');

  return (
    <article className={styles.card} aria-label={title} data-testid="result-card" data-entity={item.entity} data-location-id={item.locationId}>
      <div className={styles.top}>
        <LogoAvatar name={name} logo={item.logo} shape={isProvider ? 'round' : 'square'} />
        <div className={styles.heading}>
          <span className={styles.labels}>
            <span className={styles.label} style={{ color: label.color, borderColor: label.color }} data-testid="entity-label">
              {label.label}
            </span>
            {item.favorite ? (
              <span className={styles.favoriteFlag} data-testid="favorite-flag">
                <HeartIcon size={12} filled /> Favorite
              </span>
            ) : null}
          </span>
          <h3 className={styles.name} title={title}>
            <button type="button" className={styles.nameLink} onClick={() => onOpenDetails(item)}>
              {truncate(name, CARD_NAME_MAX)}
              {/* The location name is never cut: it tells the locations of one organisation apart. */}
              {locationName ? (
                <>
                  <span className="visually-hidden"> — </span>
                  <span className={styles.place} data-testid="location-name">
                    {locationName}
                  </span>
                </>
              ) : null}
            </button>
          </h3>
          {item.credentials ? <p className={styles.credentials}>{item.credentials}</p> : null}
        </div>
        {distance ? (
          <span className={styles.distance} data-testid="distance">
            {distance}
          </span>
        ) : item.isVirtualLocation ? (
          <span className={styles.distance}>Virtual</span>
        ) : null}
        {onToggleFavorite ? (
          <button
            type="button"
            className={`${styles.heart} ${item.favorite ? styles.heartOn : ''}`}
            aria-pressed={Boolean(item.favorite)}
            aria-label={item.favorite ? `Remove ${title} from favorites` : `Add ${title} to favorites`}
            title={item.favorite ? 'Remove from favorites' : 'Add to favorites'}
            disabled={favoriteBusy}
            onClick={() => onToggleFavorite(item)}
          >
            <HeartIcon size={20} filled={Boolean(item.favorite)} />
          </button>
        ) : null}
      </div>

      <dl className={styles.facts}>
        {item.address || place ? (
          <div className={styles.fact}>
            <dt className="visually-hidden">Address</dt>
            <dd title={[item.address, place].filter(Boolean).join(', ')}>
              <PinIcon size={14} />
              <span data-testid="address">{truncate(item.address, CARD_ADDRESS_MAX)}</span>
              {place ? <span className={styles.muted}> · {place}</span> : null}
            </dd>
          </div>
        ) : null}
        <div className={styles.fact}>
          <dt className="visually-hidden">Availability</dt>
          <dd className={item.newPatients ? styles.accepting : styles.closed}>
            <span className={styles.dot} aria-hidden="true" />
            {availability}
          </dd>
        </div>
        {notVerifiedRecently(item.lastVerified) ? (
          <div className={styles.fact}>
            <dt className="visually-hidden">Listing</dt>
            <dd className={styles.stale} data-testid="not-verified">
              Not verified recently
            </dd>
          </div>
        ) : null}
        {item.speciality ? (
          <div className={styles.fact}>
            <dt>Speciality</dt>
            <dd>{item.speciality}</dd>
          </div>
        ) : null}
        {gender ? (
          <div className={styles.fact}>
            <dt>Gender</dt>
            <dd>{gender}</dd>
          </div>
        ) : null}
        {isProvider && item.worksAt ? (
          <div className={styles.fact}>
            <dt>Works at</dt>
            <dd>{item.worksAt}</dd>
          </div>
        ) : null}
      </dl>

      <CareModalities modality={item.careModality} isVirtualLocation={item.isVirtualLocation} homeCare={item.homeCare} />

      {item.isVirtualLocation && onHomeZipCode ? <HomeZipForm item={item} current={userZipCode ?? null} onSubmit={onHomeZipCode} /> : null}

      <div className={styles.actions}>
        {action.kind !== 'details' ? (
          <Button variant="secondary" size="sm" aria-label={`View details of ${title}`} onClick={() => onOpenDetails(item)}>
            View Details
          </Button>
        ) : null}
        <Button
          size="sm"
          variant={action.kind === 'waitlist' || action.kind === 'waitlisted' ? 'quiet' : 'primary'}
          disabled={action.disabled || (selecting && action.kind === 'select')}
          aria-label={actionName(action, title)}
          onClick={() => onAction(item, action)}
        >
          {action.label}
        </Button>
      </div>
    </article>
  );
}

/** What a skeleton card is drawn from: a clinic card with the usual lines, so it stands as tall as one. */
const SKELETON_ITEM: MarketItem = {
  entity: 'location',
  id: 0,
  locationId: 0,
  name: 'Clinic name placeholder',
  locationName: 'Location',
  credentials: 'MD',
  address: '100 Main Street',
  city: 'City',
  state: 'ST',
  zipCode: '00000',
  logo: '',
  coordinates: { lat: 0, lng: 0 },
  distance: 1,
  gender: null,
  newPatients: true,
  isVirtualLocation: false,
  homeCare: false,
  careModality: { atClinic: true, atWork: false, inHome: false, phone: true, textChat: true, virtual: false },
  speciality: 'Family Medicine',
  category: '',
  services: [],
};

/**
 * A result card's place while the search runs: a real card drawn from a placeholder, its text
 * turned into grey bars, so the list keeps its final layout when the cards arrive. Hidden from
 * assistive technology and out of the tab order (`inert`).
 */
export function ResultCardSkeleton() {
  return (
    <div className={styles.skeleton} aria-hidden="true" inert data-testid="result-card-skeleton">
      <ResultCard item={SKELETON_ITEM} action={{ kind: 'select', label: 'Select', disabled: true }} onAction={() => {}} onOpenDetails={() => {}} />
    </div>
  );
}

/** What Check answers about a home ZIP code: whether the network serves it, in words. */
type CoverageAnswer = { kind: 'checking' } | { kind: 'serves' | 'does-not-serve' | 'unknown'; text: string };

/**
 * Whether a virtual network serves a home ZIP code: the ZIP's state (geocoded) among the states
 * the network lists (its profile's virtualStates).
 */
function useHomeZipCheck(item: MarketItem) {
  const queryClient = useQueryClient();
  return async (zip: string): Promise<CoverageAnswer> => {
    try {
      const [place, profile] = await Promise.all([geocode({ address: zip }), queryClient.fetchQuery(clinicProfileQueryOptions(item.id, item.locationId))]);
      const found = place.results[0];
      const states = profile.virtualStates ?? [];
      if (!found?.state) return { kind: 'unknown', text: `We couldn't find ZIP code ${zip}.` };
      if (states.includes(found.state)) return { kind: 'serves', text: `Serves ${found.formatted_address.replace(/, USA$/, '')}.` };
      return {
        kind: 'does-not-serve',
        text: `Does not serve ${found.formatted_address.replace(/, USA$/, '')}${states.length > 0 ? ` (it serves ${states.join(', ')})` : ''}.`,
      };
    } catch (failure) {
      return { kind: 'unknown', text: isApiError(failure, 404) ? `We couldn't find ZIP code ${zip}.` : 'We could not check that ZIP code. Please try again.' };
    }
  };
}

/** The multi-location organisation's question: where is home? Check says whether it is served. */
function HomeZipForm({ item, current, onSubmit }: { item: MarketItem; current: string | null; onSubmit: (zip: string) => void }) {
  const [zip, setZip] = useState(current ?? '');
  const [answer, setAnswer] = useState<CoverageAnswer | null>(null);
  const check = useHomeZipCheck(item);
  const hintId = useId();
  const valid = ZIP_PATTERN.test(zip.trim());
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!valid || answer?.kind === 'checking') return;
    const asked = zip.trim();
    setAnswer({ kind: 'checking' });
    const found = await check(asked);
    setAnswer(found);
    // A network that serves home is searched from there (the search then lists it for that state).
    if (found.kind === 'serves') onSubmit(asked);
  }
  return (
    <form className={styles.zipForm} onSubmit={(event) => void submit(event)}>
      <p id={hintId}>Serves several locations. Enter your home zip code to see if it serves you.</p>
      <div className={styles.zipRow}>
        <input
          inputMode="numeric"
          autoComplete="postal-code"
          placeholder="Home zip code"
          aria-label="Home zip code"
          aria-describedby={hintId}
          value={zip}
          maxLength={10}
          onChange={(event) => setZip(event.target.value)}
        />
        <Button type="submit" size="sm" variant="secondary" disabled={!valid || answer?.kind === 'checking'}>
          Check
        </Button>
      </div>
      <p role="status" className={answer && answer.kind !== 'checking' && answer.kind !== 'serves' ? styles.zipNo : styles.zipYes} data-testid="home-zip-answer">
        {answer === null ? '' : answer.kind === 'checking' ? 'Checking…' : answer.text}
      </p>
    </form>
  );
}
