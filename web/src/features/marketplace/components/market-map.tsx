/**
 * The marketplace map (loaded lazily with Leaflet and the basemap). Shows single clinic pins
 * when zoomed in (overlapping ones clustered on the client), the server's area pins when zoomed
 * out or when the box holds too many clinics, the 'You are here' marker under the pins, an info
 * window, and Update Search after a move.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import L from 'leaflet';
import { addBasemap, BASE_MAP_OPTIONS } from '@/components/map/basemap';
import { areaIcon, areaIconSize, PIN_SIZE, clinicPinIcon, hereIcon, nameMarker, onMarkerActivate } from '@/components/map/pin-icons';
import { SearchIcon } from '@/components/icons/icons';
import { NARROW_MAP_QUERY, useMediaQuery } from '@/lib/use-media-query';
import { useAreaPins } from '@/api/market/get-area-pins';
import { useLocationPins } from '@/api/market/get-location-pins';
import type { AreaPin, Bounds, LatLng, LocationPin, PinFilters } from '@/api/market/types';
import { clusterPins, mergeOverlappingAreas } from '../utils/pin-clusters';
import { MIN_PIN_ZOOM, SEARCH_ZOOM, UPDATE_SEARCH_DELAY_MS, US_BOUNDS, US_ZOOM } from '../utils/search-constants';
import { PinPreview } from './pin-preview';
import styles from './market-map.module.css';

/** Past this many pins in view, the map shows area pins instead (no thousands of DOM markers). */
export const MAX_DOM_PINS = 300;

/**
 * Room kept free when a cluster opens: a pin is drawn above its point (48 px tall), and the zoom
 * buttons (top left) and Update Search (top centre) lie over the map's top band, so clinics
 * opened there would sit half under them and be hard to press.
 */
const CLUSTER_ZOOM_PADDING: Pick<L.FitBoundsOptions, 'paddingTopLeft' | 'paddingBottomRight'> = { paddingTopLeft: [56, 112], paddingBottomRight: [32, 24] };

const HERE_PANE = 'ncHere';

export interface MarketMapProps {
  origin: LatLng | null;
  /** Recentres on `origin` whenever this changes. */
  searchId: number;
  pinFilters: PinFilters;
  onUpdateSearch: (center: LatLng) => void;
  onOpenClinic: (organisationId: number, locationId: number) => void;
  label?: string;
  /** The map element's id (the page's "Skip to map" link moves focus to it). */
  id?: string;
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

/** A pin's accessible name: the organisation and the location (three Front Range pins differ), and its state. */
export function pinName(pin: LocationPin): string {
  const place = pin.locationName && pin.locationName !== pin.name ? ` — ${pin.locationName}` : '';
  return `${pin.name}${place}, ${pin.newPatients ? 'accepting new patients' : 'not accepting new patients'}${pin.favorite ? ', favorite' : ''}`;
}

/** Marks a marker's element, so focus can find the same marker again after the layer is redrawn. */
function keyMarker(marker: L.Marker, key: string) {
  marker.getElement()?.setAttribute('data-marker-key', key);
}

/** One clinic: its pin, named for screen readers, opening the info window (or the profile on a phone). */
function drawClinicPin(layer: L.LayerGroup, pin: LocationPin, onPin: (pin: LocationPin, marker: L.Marker) => void) {
  const marker = L.marker([pin.coordinates.lat, pin.coordinates.lng], { icon: clinicPinIcon(pin.newPatients, Boolean(pin.favorite)), keyboard: true, riseOnHover: true, title: pin.name });
  onMarkerActivate(marker, () => onPin(pin, marker));
  marker.addTo(layer);
  nameMarker(marker, pinName(pin));
  marker.getElement()?.setAttribute('aria-haspopup', 'dialog');
  keyMarker(marker, `pin-${pin.locationId}`);
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
  keyMarker(marker, `cluster-${pins[0].locationId}`);
}

/** The server's areas that would touch on screen, merged: one count, one marker, the union of their cells. */
function mergedAreas(map: L.Map, areas: AreaPin[]): AreaPin[] {
  const countOf = (items: AreaPin[]) => items.reduce((sum, area) => sum + area.count, 0);
  // A single clinic is a pin standing on its point; a count is a disc centred on it.
  const disc = (x: number, y: number, items: AreaPin[]) => {
    const count = countOf(items);
    return count === 1 ? { x, y: y - PIN_SIZE[1] / 2, radius: PIN_SIZE[1] / 2 } : { x, y, radius: areaIconSize(count) / 2 };
  };
  const groups = mergeOverlappingAreas(
    areas.map((area) => ({ ...map.latLngToLayerPoint([area.coordinates.lat, area.coordinates.lng]), item: area })),
    disc,
  );
  return groups.map(({ items }) => {
    if (items.length === 1) return items[0]!;
    const accepting = items.some((area) => (typeof area.newPatients === 'number' ? area.newPatients > 0 : Boolean(area.newPatients)));
    return {
      coordinates: items[0]!.coordinates,
      count: countOf(items),
      newPatients: accepting,
      bounds: {
        nwLng: Math.min(...items.map((area) => area.bounds.nwLng)),
        nwLat: Math.max(...items.map((area) => area.bounds.nwLat)),
        seLng: Math.max(...items.map((area) => area.bounds.seLng)),
        seLat: Math.min(...items.map((area) => area.bounds.seLat)),
      },
    };
  });
}

/** The smallest part of a marker left to aim at (WCAG 2.5.8's 24 by 24 CSS pixels). */
const MIN_TARGET_PX = 24;

/**
 * Takes out of the tab order (and the pointer's way) the markers that what lies over the map
 * covers (the info window, the zoom buttons, Update Search) or that its edge cuts to a sliver,
 * and gives back the others: such a pin cannot be aimed at, and it comes back whole once the map
 * moves.
 */
function setCoveredMarkers(map: L.Map) {
  const container = map.getContainer();
  const edge = container.getBoundingClientRect();
  const covers = [...(container.parentElement ?? container).querySelectorAll<HTMLElement>('.leaflet-popup, .leaflet-control-zoom, [data-map-overlay]')].map((element) =>
    element.getBoundingClientRect(),
  );
  for (const element of container.querySelectorAll<HTMLElement>('.leaflet-marker-pane [data-marker-key]')) {
    const rect = element.getBoundingClientRect();
    const shownWidth = Math.min(rect.right, edge.right) - Math.max(rect.left, edge.left);
    const shownHeight = Math.min(rect.bottom, edge.bottom) - Math.max(rect.top, edge.top);
    const covered = covers.some((box) => rect.left < box.right && rect.right > box.left && rect.top < box.bottom && rect.bottom > box.top);
    element.inert = covered || shownWidth < MIN_TARGET_PX || shownHeight < MIN_TARGET_PX;
  }
}

/** Where 'You are here' may put its label, in order of preference: below the dot, then beside it, then above. */
const HERE_LABEL_PLACES: Array<{ direction: L.Direction; offset: [number, number]; box: [number, number, number, number] }> = [
  { direction: 'bottom', offset: [0, 12], box: [-48, 14, 48, 44] },
  { direction: 'right', offset: [12, 0], box: [14, -15, 110, 15] },
  { direction: 'left', offset: [-12, 0], box: [-110, -15, -14, 15] },
  { direction: 'top', offset: [0, -12], box: [-48, -44, 48, -14] },
];

/** Binds the 'You are here' label on the first side no marker covers (below when every side is taken). */
function placeHereLabel(map: L.Map, here: L.Marker) {
  const at = map.latLngToContainerPoint(here.getLatLng());
  const container = map.getContainer().getBoundingClientRect();
  const markers = [...map.getContainer().querySelectorAll<HTMLElement>('.leaflet-marker-pane [data-marker-key]')].map((element) => element.getBoundingClientRect());
  const free = HERE_LABEL_PLACES.find(({ box: [left, top, right, bottom] }) => {
    const [x0, y0, x1, y1] = [container.left + at.x + left, container.top + at.y + top, container.left + at.x + right, container.top + at.y + bottom];
    return markers.every((rect) => rect.right <= x0 || rect.left >= x1 || rect.bottom <= y0 || rect.top >= y1);
  });
  const place = free ?? HERE_LABEL_PLACES[0]!;
  here.unbindTooltip();
  here.bindTooltip('You are here', { permanent: true, direction: place.direction, offset: place.offset, className: 'nc-here-label', pane: HERE_PANE });
}

/**
 * Pins that would cover each other at the deepest zoom, moved onto a ring around the first of
 * them, far enough apart that none covers another (at zoom 18 the ring is a few metres wide).
 */
function spreadAround(map: L.Map, pins: LocationPin[]): LocationPin[] {
  const centre = map.project([pins[0]!.coordinates.lat, pins[0]!.coordinates.lng]);
  // Neighbours on the ring stand a pin's width and a gap apart.
  const radius = Math.max(48, ((PIN_SIZE[0] + 16) * pins.length) / (2 * Math.PI));
  return pins.map((pin, index) => {
    const angle = (2 * Math.PI * index) / pins.length - Math.PI / 2;
    const at = map.unproject(centre.add([radius * Math.cos(angle), radius * Math.sin(angle)]));
    return { ...pin, coordinates: { lat: at.lat, lng: at.lng } };
  });
}

/** Squared distance in degrees, enough to put the nearest clinic first. */
const nearness = (a: LatLng, b: LatLng) => (a.lat - b.lat) ** 2 + ((a.lng - b.lng) * Math.cos((a.lat * Math.PI) / 180)) ** 2;

export default function MarketMap({ origin, searchId, pinFilters, onUpdateSearch, onOpenClinic, label = 'Map of clinics', id }: MarketMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const pinLayerRef = useRef<L.LayerGroup | null>(null);
  const hereRef = useRef<L.Marker | null>(null);
  // Set before the app moves the map itself, so only the user's moves offer Update Search.
  const programmaticMove = useRef(false);
  const [view, setView] = useState<MapView | null>(null);
  const [showUpdate, setShowUpdate] = useState(false);
  const [popup, setPopup] = useState<{ organisationId: number; locationId: number; latlng: L.LatLng; name: string } | null>(null);
  // Set when a cluster is opened from the keyboard: the first marker of the zoomed view takes focus.
  const focusAfterZoom = useRef(false);
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
    // In its own pane under the pins, so it never covers a clinic; its label goes where no marker
    // stands (placeHereLabel, again after each drawing).
    const marker = L.marker([origin.lat, origin.lng], { icon: hereIcon(), keyboard: false, interactive: false, pane: HERE_PANE }).addTo(map);
    hereRef.current = marker;
    placeHereLabel(map, marker);
  }, [origin]);

  const wantsPins = view !== null && view.zoom >= MIN_PIN_ZOOM;
  const pins = useLocationPins(view?.bounds ?? null, pinFilters, wantsPins);
  const pinsData = pins.data;
  const tooManyPins = pinsData !== undefined && (pinsData.overLimit || pinsData.pins.length > MAX_DOM_PINS);
  const wantsAreas = view !== null && (!wantsPins || tooManyPins);
  const areas = useAreaPins(view?.bounds ?? null, Math.floor(view?.zoom ?? US_ZOOM), pinFilters, wantsAreas);

  // Draws the markers for whatever the current mode is, nearest first (the first reached with
  // Tab). A marker that had keyboard focus has it again once redrawn (the same clinic or cluster),
  // and after a cluster opened from the keyboard the first marker of the new view takes it. In the
  // commit that brings the answer, so the map is never shown idle (aria-busy off) without them.
  const zoom = view?.zoom;
  useLayoutEffect(() => {
    const layer = pinLayerRef.current;
    const map = mapRef.current;
    if (!layer || !map) return;
    const focusedKey = document.activeElement?.closest('[data-marker-key]')?.getAttribute('data-marker-key') ?? null;
    layer.clearLayers();
    /** Zooms in on a group of clinics so they separate (or at least to the single-pin zoom). */
    const zoomTo = (corners: L.LatLngBoundsExpression, maxZoom = Math.max(map.getZoom() + 2, MIN_PIN_ZOOM)) => {
      focusAfterZoom.current = Boolean(document.activeElement?.closest('.leaflet-marker-pane'));
      map.fitBounds(corners, { ...CLUSTER_ZOOM_PADDING, maxZoom });
    };
    const centre = origin ?? map.getCenter();
    if (wantsAreas) {
      const all = [...(areas.data?.areas ?? [])].sort((a, b) => nearness(a.coordinates, centre) - nearness(b.coordinates, centre));
      for (const [index, area] of mergedAreas(map, all).entries()) {
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
        keyMarker(marker, `area-${index}`);
      }
    } else {
      const onPin = (pin: LocationPin, marker: L.Marker) => {
        if (latest.current.narrow) latest.current.onOpenClinic(pin.id, pin.locationId);
        else setPopup({ organisationId: pin.id, locationId: pin.locationId, latlng: marker.getLatLng(), name: pinName(pin) });
      };
      const pins = [...(pinsData?.pins ?? [])].sort((a, b) => nearness(a.coordinates, centre) - nearness(b.coordinates, centre));
      const overlapping = clusterPins(pins.map((pin) => ({ ...map.project([pin.coordinates.lat, pin.coordinates.lng]), item: pin })));
      const deepest = map.getZoom() >= map.getMaxZoom();
      for (const { items } of overlapping) {
        if (items.length === 1) drawClinicPin(layer, items[0], onPin);
        // At the deepest zoom nothing separates further: the pins stand in a ring around their
        // place (a few metres at this zoom), each a whole target of its own.
        else if (deepest) for (const pin of spreadAround(map, items)) drawClinicPin(layer, pin, onPin);
        // A cluster's clinics are all in the box: zoom as far as it takes to part them.
        else drawPinCluster(layer, items, (corners) => zoomTo(corners, map.getMaxZoom()));
      }
    }
    if (hereRef.current) placeHereLabel(map, hereRef.current);
    const container = map.getContainer();
    const again = focusedKey ? container.querySelector<HTMLElement>(`[data-marker-key="${focusedKey}"]`) : null;
    if (again) again.focus();
    else if (focusAfterZoom.current) {
      const first = container.querySelector<HTMLElement>('.leaflet-marker-pane [data-marker-key]');
      if (first) {
        focusAfterZoom.current = false;
        first.focus();
      }
    }
    // Drawn again when the markers' data or the zoom change; the origin is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wantsAreas, areas.data, pinsData, zoom]);

  // Whatever moved, appeared or was drawn: the markers under the map's controls step aside.
  useEffect(() => {
    if (mapRef.current) setCoveredMarkers(mapRef.current);
  }, [view, showUpdate, pinsData, areas.data, popup]);

  // The info window: a Leaflet popup whose content React renders through a portal. It is a dialog
  // named after the clinic: opening it moves focus into it, Escape closes it, and focus goes back
  // to the clinic's pin. Markers under it leave the tab order while it covers them.
  useEffect(() => {
    const map = mapRef.current;
    if (!map || !popup) return;
    popupContainer.setAttribute('role', 'dialog');
    popupContainer.setAttribute('aria-label', popup.name);
    popupContainer.tabIndex = -1;
    const leafletPopup = L.popup({ minWidth: 240, maxWidth: 300, autoPanPadding: [24, 24] })
      .setLatLng(popup.latlng)
      .setContent(popupContainer)
      .openOn(map);
    const coverMarkers = () => setCoveredMarkers(map);
    coverMarkers();
    map.on('moveend', coverMarkers);
    const opener = () => map.getContainer().querySelector<HTMLElement>(`[data-marker-key="pin-${popup.locationId}"]`);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      map.closePopup(leafletPopup);
    };
    const popupElement = leafletPopup.getElement();
    popupElement?.addEventListener('keydown', onKeyDown);
    // After Leaflet has placed it (and panned to it), so the focus does not scroll the page.
    const focusTimer = window.setTimeout(() => popupContainer.focus({ preventScroll: true }), 0);
    const onRemove = () => {
      const hadFocus = Boolean(popupElement?.contains(document.activeElement)) || document.activeElement === document.body;
      // The window is gone: the pins it covered (its own among them) can take focus again.
      setCoveredMarkers(map);
      setPopup(null);
      if (hadFocus) opener()?.focus();
    };
    leafletPopup.on('remove', onRemove);
    return () => {
      window.clearTimeout(focusTimer);
      popupElement?.removeEventListener('keydown', onKeyDown);
      map.off('moveend', coverMarkers);
      leafletPopup.off('remove', onRemove);
      leafletPopup.remove();
      setCoveredMarkers(map);
    };
  }, [popup, popupContainer]);

  const loading = pins.isFetching || areas.isFetching;
  return (
    <div className={styles.wrapper}>
      {/* Busy until the first markers of the view are drawn (the view is read once the map is made). */}
      <div ref={containerRef} id={id} className={styles.map} role="region" aria-label={label} aria-busy={view === null || loading} data-testid="market-map" />
      {showUpdate ? (
        <button
          type="button"
          data-map-overlay
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
