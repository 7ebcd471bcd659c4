import { useCallback, useEffect, useState, type Dispatch } from 'react';
import { useSearchParams } from 'react-router';
import { geocodeFirst } from '@/api/market/geocode';
import type { LatLng } from '@/api/market/types';
import { isApiError } from '@/lib/api-client';
import type { SearchAction } from '../utils/search-state';

interface LocationSearchInput {
  dispatch: Dispatch<SearchAction>;
  /** The address of the current search. */
  address: string;
  requireEmployer: (action: () => void) => void;
}

/**
 * Where the marketplace searches: a place, typed text (geocoded), the map's centre or the
 * browser's location. Each search is kept in the URL as `?location=`, which searches again on
 * arrival and after a reload.
 */
export function useLocationSearch({ dispatch, address, requireEmployer }: LocationSearchInput) {
  const [params, setParams] = useSearchParams();
  const locationParam = params.get('location');
  const [geocodeError, setGeocodeError] = useState<string | null>(null);
  const [geocoding, setGeocoding] = useState(false);

  const rememberLocation = useCallback(
    (label: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('location', label);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const searchAt = useCallback(
    (origin: LatLng, label: string) => {
      setGeocodeError(null);
      dispatch({ type: 'search', origin, address: label });
      rememberLocation(label);
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
    if (!locationParam || locationParam === address) return;
    requireEmployer(() => void searchText(locationParam));
    // Only a new location parameter starts this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [locationParam]);

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

  return { geocoding, geocodeError, searchAt, searchText, searchMapCenter, searchFromMyLocation };
}
