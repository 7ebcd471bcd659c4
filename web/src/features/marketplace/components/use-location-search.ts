import { useCallback, useEffect, useState } from 'react';
import { geocodeFirst } from '@/api/market/geocode';
import type { LatLng } from '@/api/market/types';
import { isApiError } from '@/lib/api-client';
import type { SearchState } from '../utils/search-state';
import type { SearchDispatch } from './use-search-state';

interface LocationSearchInput {
  dispatch: SearchDispatch;
  /** The current search (its address and origin come from the URL). */
  state: SearchState;
  requireEmployer: (action: () => void) => void;
  /** The employer is still being worked out (a company link, the member's own): wait for it. */
  employerPending: boolean;
}

function geocodeFailure(text: string, error: unknown): string {
  return isApiError(error, 404) ? `We couldn't find “${text}”. Try a city, state or ZIP code.` : 'We could not look up that address. Please try again.';
}

/**
 * Where the marketplace searches: a place, typed text (geocoded), the map's centre or the
 * browser's location. A link that names an address without coordinates (`?location=80202`) is
 * geocoded once the employer is known, and its coordinates complete the same history entry.
 */
export function useLocationSearch({ dispatch, state, requireEmployer, employerPending }: LocationSearchInput) {
  const [geocodeError, setGeocodeError] = useState<string | null>(null);
  const [geocoding, setGeocoding] = useState(false);

  const searchAt = useCallback(
    (origin: LatLng, label: string) => {
      setGeocodeError(null);
      dispatch({ type: 'search', origin, address: label });
    },
    [dispatch],
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
    },
    [dispatch],
  );

  const geocodeText = useCallback(async (text: string, found: (origin: LatLng) => void) => {
    setGeocoding(true);
    setGeocodeError(null);
    try {
      found((await geocodeFirst({ address: text })).location);
    } catch (error) {
      console.warn('geocoding failed', error);
      setGeocodeError(geocodeFailure(text, error));
    } finally {
      setGeocoding(false);
    }
  }, []);

  const searchText = useCallback((text: string) => geocodeText(text, (origin) => searchAt(origin, text)), [geocodeText, searchAt]);

  // A linked address without coordinates: geocode it once the employer is settled.
  const { address, origin } = state;
  useEffect(() => {
    if (!address || origin || employerPending) return;
    requireEmployer(() => void geocodeText(address, (found) => dispatch({ type: 'locate', origin: found, address }, { replace: true })));
    // Only a new address (or the employer being settled) starts this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address, origin === null, employerPending]);

  function searchFromMyLocation() {
    if (!('geolocation' in navigator)) {
      console.info('geolocation is not supported');
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (position) => {
        const here = { lat: position.coords.latitude, lng: position.coords.longitude };
        requireEmployer(() => {
          void geocodeFirst(here)
            .then((place) => searchAt(here, place.label))
            .catch(() => searchAt(here, 'My location'));
        });
      },
      (error) => console.info('geolocation unavailable', error.message),
    );
  }

  return { geocoding, geocodeError, searchAt, searchText, searchMapCenter, searchFromMyLocation };
}
