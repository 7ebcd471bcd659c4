import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { geocodeAddressQueryOptions, geocodeFirst } from '@/api/market/geocode';
import type { LatLng } from '@/api/market/types';
import { isApiError } from '@/lib/api-client';
import type { SearchState } from '../utils/search-state';
import { asLinked } from '../utils/search-url';
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
  const queryClient = useQueryClient();

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

  // Through the cache: a company link's address is asked before React renders (app/first-screen.ts).
  const geocodeText = useCallback(async (text: string, found: (origin: LatLng) => void) => {
    setGeocoding(true);
    setGeocodeError(null);
    try {
      found((await queryClient.fetchQuery(geocodeAddressQueryOptions(text))).location);
    } catch (error) {
      console.warn('geocoding failed', error);
      setGeocodeError(geocodeFailure(text, error));
    } finally {
      setGeocoding(false);
    }
  }, [queryClient]);

  const searchText = useCallback((text: string) => geocodeText(text, (origin) => searchAt(origin, text)), [geocodeText, searchAt]);

  // A linked address without coordinates is geocoded at once (through the cache: a company link's
  // is asked before React renders), while the employer is still being worked out, and searched
  // once the employer is settled: its coordinates complete the same history entry.
  const { address, origin } = state;
  const linkedAddress = origin === null ? address : '';
  const linkedPlace = useQuery({ ...geocodeAddressQueryOptions(linkedAddress), enabled: linkedAddress !== '' });
  const linkedOrigin = linkedPlace.data?.location ?? null;
  const linkedAsKept = useMemo(() => (linkedOrigin ? asLinked(linkedOrigin) : null), [linkedOrigin]);
  useEffect(() => {
    if (!linkedOrigin || employerPending) return;
    requireEmployer(() => dispatch({ type: 'locate', origin: linkedOrigin, address: linkedAddress }, { replace: true }));
    // The linked place waits for the employer; the other values are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linkedOrigin, employerPending]);
  const linkedError = linkedAddress && linkedPlace.isError ? linkedPlace.error : null;
  useEffect(() => {
    if (linkedError) console.warn('geocoding failed', linkedError);
  }, [linkedError]);

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

  return {
    geocoding: geocoding || linkedPlace.isFetching,
    geocodeError: geocodeError ?? (linkedError ? geocodeFailure(linkedAddress, linkedError) : null),
    /**
     * A linked address's place, as the link will keep it, once it is known and the employer is
     * settled: the search runs from it at once, while its coordinates reach the URL.
     */
    linkedOrigin: employerPending ? null : linkedAsKept,
    searchAt,
    searchText,
    searchMapCenter,
    searchFromMyLocation,
  };
}
