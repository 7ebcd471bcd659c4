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

  /**
   * Update Search: the map's centre becomes the origin; filters stay, page 1. A centre over open
   * water (no ZIP within 60 miles) stands on the nearest ZIP instead, and the map moves there.
   */
  const searchMapCenter = useCallback(
    async (center: LatLng) => {
      try {
        const place = await geocodeFirst({ ...center, nearest: true });
        const moved = Math.abs(place.location.lat - center.lat) > 1e-4 || Math.abs(place.location.lng - center.lng) > 1e-4;
        if (moved) dispatch({ type: 'search', origin: place.location, address: place.label });
        else dispatch({ type: 'move', origin: center, address: place.label });
      } catch (error) {
        console.info('reverse geocoding failed', error);
        dispatch({ type: 'move', origin: center, address: 'Map area' });
      }
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

  // A linked address without coordinates is geocoded at once, while the employer is still being
  // worked out (the two round trips overlap), and searched once the employer is settled.
  const { address, origin } = state;
  const [linked, setLinked] = useState<{ address: string; origin: LatLng } | null>(null);
  useEffect(() => {
    if (!address || origin) return;
    let current = true;
    void geocodeText(address, (found) => {
      if (current) setLinked({ address, origin: found });
    });
    return () => {
      current = false;
    };
    // Only a new address starts this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [address, origin === null]);
  useEffect(() => {
    if (!linked || employerPending) return;
    setLinked(null);
    if (linked.address !== address || origin) return;
    requireEmployer(() => dispatch({ type: 'locate', origin: linked.origin, address: linked.address }, { replace: true }));
    // The linked place waits for the employer; the other values are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linked, employerPending]);

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
