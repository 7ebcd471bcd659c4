/**
 * The marketplace map (loaded lazily with Leaflet and the basemap). Shows single clinic pins
 * when zoomed in (overlapping ones clustered on the client), the server's area pins when zoomed
 * out or when the box holds too many clinics, the 'You are here' marker under the pins, an info
 * window, and Update Search after a move.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import L from 'leaflet';
import { addBasemap, BASE_MAP_OPTIONS } from '@/components/map/basemap';
import { areaIcon, clinicPinIcon, hereIcon, nameMarker, onMarkerActivate } from '@/components/map/pin-icons';
import { SearchIcon } from '@/components/icons/icons';
import { NARROW_MAP_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { useAreaPins } from '@/api/market/get-area-pins';
import { useLocationPins } from '@/api/market/get-location-pins';
import type { Bounds, LatLng, LocationPin, PinFilters } from '@/api/market/types';
import { clusterPins } from '../utils/pin-clusters';
import { MIN_PIN_ZOOM, SEARCH_ZOOM, UPDATE_SEARCH_DELAY_MS, US_BOUNDS, US_ZOOM } from '../utils/search-constants';
import { PinPreview } from './pin-preview';
import styles from './market-map.module.css';

/** Past this many pins in view, the map shows area pins instead (no thousands of DOM markers). */
export const MAX_DOM_PINS = 300;
const HERE_PANE = 'ncHere';

export interface MarketMapProps {
  origin: LatLng | null;
  /** Recentres on `origin` whenever this changes. */
  searchId: number;
  pinFilters: PinFilters;
  onUpdateSearch: (center: LatLng) => void;
  onOpenClinic: (organisationId: number, locationId: number) => void;
  label?: string;
}

interface MapView {
  bounds: Bounds;
  zoom: number;
}

const round = (value: number) => Math.round(value * 1e4) / 1e4;

function readView(map: L.Map): MapView {
  const box = map.getBounds();
  return {
    zoom: map.getZoom(),
    bounds: {
      nwLng: round(Math.max(box.getWest(), -180)),
      nwLat: round(Math.min(box.getNorth(), 85)),
      seLng: round(Math.min(box.getEast(), 180)),
      seLat: round(Math.max(box.getSouth(), -85)),
    },
  };
}

/** One clinic: its pin, named for screen readers, opening the info window (or the profile on a phone). */
function drawClinicPin(layer: L.LayerGroup, pin: LocationPin, onPin: (pin: LocationPin, marker: L.Marker) => void) {
  const marker = L.marker([pin.coordinates.lat, pin.coordinates.lng], { icon: clinicPinIcon(pin.newPatients, Boolean(pin.favorite)), keyboard: true, riseOnHover: true, title: pin.name });
  onMarkerActivate(marker, () => onPin(pin, marker));
  marker.addTo(layer);
  nameMarker(marker, `${pin.name}, ${pin.newPatients ? 'accepting new patients' : 'not accepting new patients'}${pin.favorite ? ', favorite' : ''}`);
}

/**
 * Overlapping clinics: one numbered marker where the first of them is (group seeds are further
 * apart than a pin, so markers never pile up); pressing it zooms in until they separate.
 */
function drawPinCluster(layer: L.LayerGroup, pins: LocationPin[], zoomTo: (corners: L.LatLngBoundsExpression) => void) {
  const corners = L.latLngBounds(pins.map((pin) => [pin.coordinates.lat, pin.coordinates.lng] as [number, number]));
  const accepting = pins.some((pin) => pin.newPatients);
  const marker = L.marker([pins[0].coordinates.lat, pins[0].coordinates.lng], { icon: areaIcon(pins.length, accepting, true), keyboard: true, riseOnHover: true, zIndexOffset: 100 });
  onMarkerActivate(marker, () => zoomTo(corners));
  marker.addTo(layer);
  nameMarker(marker, `${pins.length} clinics here, zoom in`);
}

export default function MarketMap({ origin, searchId, pinFilters, onUpdateSearch, onOpenClinic, label = 'Map of clinics' }: MarketMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const pinLayerRef = useRef<L.LayerGroup | null>(null);
  const hereRef = useRef<L.Marker | null>(null);
  // Set before the app moves the map itself, so only the user's moves offer Update Search.
  const programmaticMove = useRef(false);
  const [view, setView] = useState<MapView | null>(null);
  const [showUpdate, setShowUpdate] = useState(false);
  const [popup, setPopup] = useState<{ organisationId: number; locationId: number; latlng: L.LatLng } | null>(null);
  const popupContainer = useMemo(() => document.createElement('div'), []);
  const narrow = useMediaQuery(NARROW_MAP_QUERY);

  // Callbacks change on every render; the Leaflet handlers read the latest through refs.
  const latest = useRef({ onOpenClinic, narrow });
  latest.current = { onOpenClinic, narrow };

  useEffect(() => {
    const container = containerRef.current!;
    // Half-zoom steps let the whole contiguous US fit a half-width map.
    const map = L.map(container, { ...BASE_MAP_OPTIONS, zoomSnap: 0.5 });
    mapRef.current = map;
    const removeBasemap = addBasemap(map);
    pinLayerRef.current = L.layerGroup().addTo(map);
    // Between the overlays (400) and the markers (600): 'You are here' stays under the pins.
    map.createPane(HERE_PANE).style.zIndex = '550';
    if (origin) map.setView([origin.lat, origin.lng], SEARCH_ZOOM);
    else map.fitBounds(US_BOUNDS, { padding: [8, 8] });
    setView(readView(map));

    let updateTimer: number | undefined;
    map.on('movestart', () => {
      window.clearTimeout(updateTimer);
    });
    map.on('autopanstart', () => {
      programmaticMove.current = true;
    });
    map.on('moveend', () => {
      setView(readView(map));
      if (programmaticMove.current) {
        programmaticMove.current = false;
        return;
      }
      setShowUpdate(false);
      updateTimer = window.setTimeout(() => setShowUpdate(true), UPDATE_SEARCH_DELAY_MS);
    });

    const resize = new ResizeObserver(() => map.invalidateSize());
    resize.observe(container);
    return () => {
      window.clearTimeout(updateTimer);
      resize.disconnect();
      removeBasemap();
      map.remove();
      mapRef.current = null;
    };
    // The map is created once; later origins are handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A new search recentres the map on its origin.
  const firstSearchId = useRef(searchId);
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !origin || searchId === firstSearchId.current) return;
    programmaticMove.current = true;
    setShowUpdate(false);
    map.setView([origin.lat, origin.lng], SEARCH_ZOOM);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [searchId]);

  // 'You are here' follows the search origin.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    hereRef.current?.remove();
    hereRef.current = null;
    if (!origin) return;
    // In its own pane under the pins, label included (below the dot, where pins do not reach):
    // it never covers the nearest clinic.
    const marker = L.marker([origin.lat, origin.lng], { icon: hereIcon(), keyboard: false, interactive: false, pane: HERE_PANE })
      .bindTooltip('You are here', { permanent: true, direction: 'bottom', offset: [0, 12], className: 'nc-here-label', pane: HERE_PANE })
      .addTo(map);
    marker.getElement()?.setAttribute('aria-label', 'You are here');
    hereRef.current = marker;
  }, [origin]);

  const wantsPins = view !== null && view.zoom >= MIN_PIN_ZOOM;
  const pins = useLocationPins(view?.bounds ?? null, pinFilters, wantsPins);
  const pinsData = pins.data;
  const tooManyPins = pinsData !== undefined && (pinsData.overLimit || pinsData.pins.length > MAX_DOM_PINS);
  const wantsAreas = view !== null && (!wantsPins || tooManyPins);
  const areas = useAreaPins(view?.bounds ?? null, Math.floor(view?.zoom ?? US_ZOOM), pinFilters, wantsAreas);

  // Draws the markers for whatever the current mode is.
  const zoom = view?.zoom;
  useEffect(() => {
    const layer = pinLayerRef.current;
    const map = mapRef.current;
    if (!layer || !map) return;
    layer.clearLayers();
    /** Zooms in on a group of clinics so they separate (or at least to the single-pin zoom). */
    const zoomTo = (corners: L.LatLngBoundsExpression, maxZoom = Math.max(map.getZoom() + 2, MIN_PIN_ZOOM)) => map.fitBounds(corners, { padding: [48, 48], maxZoom });
    if (wantsAreas) {
      for (const area of areas.data?.areas ?? []) {
        const accepting = typeof area.newPatients === 'number' ? area.newPatients > 0 : Boolean(area.newPatients);
        const { bounds } = area;
        const corners: L.LatLngBoundsExpression = [
          [bounds.seLat, bounds.nwLng],
          [bounds.nwLat, bounds.seLng],
        ];
        // One clinic is a pin, not a cluster of one; pressing it zooms in to the clinic itself.
        const single = area.count === 1;
        const marker = L.marker([area.coordinates.lat, area.coordinates.lng], { icon: single ? clinicPinIcon(accepting) : areaIcon(area.count, accepting), keyboard: true, riseOnHover: true });
        onMarkerActivate(marker, () => zoomTo(corners));
        marker.addTo(layer);
        nameMarker(marker, single ? `A clinic ${accepting ? 'accepting' : 'not accepting'} new patients, zoom in` : `${area.count} clinics in this area, zoom in`);
      }
      return;
    }
    const onPin = (pin: LocationPin, marker: L.Marker) => {
      if (latest.current.narrow) latest.current.onOpenClinic(pin.id, pin.locationId);
      else setPopup({ organisationId: pin.id, locationId: pin.locationId, latlng: marker.getLatLng() });
    };
    const pins = pinsData?.pins ?? [];
    // At the deepest zoom nothing separates further: every pin is drawn.
    const overlapping = map.getZoom() >= map.getMaxZoom() ? pins.map((pin) => ({ items: [pin] })) : clusterPins(pins.map((pin) => ({ ...map.project([pin.coordinates.lat, pin.coordinates.lng]), item: pin })));
    for (const { items } of overlapping) {
      if (items.length === 1) drawClinicPin(layer, items[0], onPin);
      // A cluster's clinics are all in the box: zoom as far as it takes to part them.
      else drawPinCluster(layer, items, (corners) => zoomTo(corners, map.getMaxZoom()));
    }
  }, [wantsAreas, areas.data, pinsData, zoom]);

  // The info window: a Leaflet popup whose content React renders through a portal.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !popup) return;
    const leafletPopup = L.popup({ minWidth: 240, maxWidth: 300, autoPanPadding: [24, 24] })
      .setLatLng(popup.latlng)
      .setContent(popupContainer)
      .openOn(map);
    const onRemove = () => setPopup(null);
    leafletPopup.on('remove', onRemove);
    return () => {
      leafletPopup.off('remove', onRemove);
      leafletPopup.remove();
    };
  }, [popup, popupContainer]);

  const loading = pins.isFetching || areas.isFetching;
  return (
    <div className={styles.wrapper}>
      <div ref={containerRef} className={styles.map} role="region" aria-label={label} data-testid="market-map" />
      {showUpdate ? (
        <button
          type="button"
          className={styles.update}
          onClick={() => {
            const center = mapRef.current!.getCenter();
            setShowUpdate(false);
            onUpdateSearch({ lat: round(center.lat), lng: round(center.lng) });
          }}
        >
          <SearchIcon size={16} />
          Update Search
        </button>
      ) : null}
      {loading ? <span className={styles.loading} role="status">Loading clinics…</span> : null}
      <div className={styles.legend} aria-hidden="true">
        <span>
          <i style={{ background: '#1a3e8c' }} /> Accepting new patients
        </span>
        <span>
          <i style={{ background: '#4a5563' }} /> Not accepting
        </span>
      </div>
      {popup
        ? createPortal(<PinPreview locationId={popup.locationId} onOpen={() => onOpenClinic(popup.organisationId, popup.locationId)} />, popupContainer)
        : null}
    </div>
  );
}
