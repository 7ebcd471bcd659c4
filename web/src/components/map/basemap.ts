/**
 * The basemap, drawn as vector layers from us-atlas (no tile server, works offline): a light land
 * fill over the water-coloured background, county lines once the map is zoomed in to city level,
 * and state outlines on top. When VITE_TILE_URL is set, raster tiles are used instead.
 *
 * The state file (about 38 KB gzipped) loads with the map; the county lines (about 130 KB gzipped)
 * load only when a map first reaches COUNTY_MIN_ZOOM, and are then shared by every map on the page.
 */
import L from 'leaflet';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { env } from '@/config/env';
import 'leaflet/dist/leaflet.css';
import './map.css';

/** County lines show (and their file first loads) from this zoom up: city level. */
export const COUNTY_MIN_ZOOM = 7;

/** Basemap colours; the water and outside colour is the container background in map.css. */
const LAND_STYLE: L.PathOptions = { stroke: false, fillColor: '#f5f3ee', fillOpacity: 1 };
const COUNTY_STYLE: L.PathOptions = { color: '#bcc4ce', weight: 1, opacity: 1, fill: false };
const STATE_STYLE: L.PathOptions = { color: '#8e9aab', weight: 1.5, opacity: 1, fill: false };

/** Panes under Leaflet's overlay pane (400), bottom to top, so pins and popups stay above. */
const PANES = { land: ['ncLand', 200], counties: ['ncCounties', 210], states: ['ncStates', 220] } as const;

interface StateShapes {
  land: GeoJSON.FeatureCollection;
  outlines: GeoJSON.MultiLineString;
}

type StatesTopology = Topology<{ states: GeometryCollection }>;

let statesPromise: Promise<StateShapes> | null = null;
let countiesPromise: Promise<GeoJSON.FeatureCollection<GeoJSON.MultiLineString>> | null = null;

/** Loads and converts the states once per page: polygons for the land, one mesh for the borders. */
function loadStates(): Promise<StateShapes> {
  statesPromise ??= import('us-atlas/states-10m.json').then((module) => {
    const topology = (module.default ?? module) as unknown as StatesTopology;
    return {
      land: feature(topology, topology.objects.states) as GeoJSON.FeatureCollection,
      // Every arc once (shared borders and coasts), so no border is drawn twice.
      outlines: mesh(topology, topology.objects.states),
    };
  });
  statesPromise.catch(() => {
    statesPromise = null;
  });
  return statesPromise;
}

/** Grid cell size (degrees) used to group county lines so Leaflet skips those out of view. */
const COUNTY_CELL_DEGREES = 4;

/**
 * Loads the county lines once per page: the borders between two counties of the same state (coasts
 * and state borders come from the state layer), cut from us-atlas counties-10m.json at build time
 * (build-plugins/county-lines.ts), grouped here into grid cells.
 */
function loadCounties(): Promise<GeoJSON.FeatureCollection<GeoJSON.MultiLineString>> {
  countiesPromise ??= import('virtual:county-lines').then(({ default: topology }) => {
    const lines = feature(topology, topology.objects.lines).geometry as GeoJSON.MultiLineString;
    const cells = new Map<string, GeoJSON.Position[][]>();
    for (const line of lines.coordinates) {
      const [lng, lat] = line[0]!;
      const key = `${Math.floor(lng! / COUNTY_CELL_DEGREES)}:${Math.floor(lat! / COUNTY_CELL_DEGREES)}`;
      let cell = cells.get(key);
      if (!cell) cells.set(key, (cell = []));
      cell.push(line);
    }
    return {
      type: 'FeatureCollection',
      features: [...cells.values()].map((coordinates) => ({ type: 'Feature', properties: {}, geometry: { type: 'MultiLineString', coordinates } })),
    };
  });
  countiesPromise.catch(() => {
    countiesPromise = null;
  });
  return countiesPromise;
}

function pane(map: L.Map, [name, zIndex]: readonly [string, number]): string {
  if (!map.getPane(name)) {
    const element = map.createPane(name);
    element.style.zIndex = String(zIndex);
    element.style.pointerEvents = 'none';
  }
  return name;
}

/** Adds the basemap to a map; returns a function that removes it. */
export function addBasemap(map: L.Map): () => void {
  if (env.tileUrl) {
    const tiles = L.tileLayer(env.tileUrl, { attribution: env.tileAttribution, maxZoom: 19 }).addTo(map);
    return () => tiles.remove();
  }
  map.getContainer().classList.add('nc-vector-basemap');
  map.attributionControl?.addAttribution('Boundaries: US Census Bureau');
  const layers: L.Layer[] = [];
  let counties: L.GeoJSON | null = null;
  let countiesRequested = false;
  let removed = false;

  void loadStates().then(
    (states) => {
      if (removed) return;
      layers.push(
        L.geoJSON(states.land, { interactive: false, pane: pane(map, PANES.land), style: LAND_STYLE }).addTo(map),
        L.geoJSON(states.outlines, { interactive: false, pane: pane(map, PANES.states), style: STATE_STYLE }).addTo(map),
      );
    },
    (error: unknown) => console.warn('the state outlines did not load', error),
  );

  // County lines: fetched the first time this map reaches city zoom, shown only at that zoom.
  const showCounties = () => {
    const zoomedIn = map.getZoom() >= COUNTY_MIN_ZOOM;
    if (counties) {
      if (zoomedIn && !map.hasLayer(counties)) counties.addTo(map);
      else if (!zoomedIn && map.hasLayer(counties)) counties.remove();
      return;
    }
    if (!zoomedIn || countiesRequested) return;
    countiesRequested = true;
    void loadCounties().then(
      (lines) => {
        if (removed) return;
        counties = L.geoJSON(lines, { interactive: false, pane: pane(map, PANES.counties), style: COUNTY_STYLE });
        layers.push(counties);
        showCounties();
      },
      (error: unknown) => {
        countiesRequested = false;
        console.warn('the county outlines did not load', error);
      },
    );
  };
  map.on('zoomend', showCounties);
  // The map may get its first view after this call (whenReady runs at once if it already has one).
  map.whenReady(showCounties);

  return () => {
    removed = true;
    map.off('zoomend', showCounties);
    for (const layer of layers) layer.remove();
  };
}

/** Options shared by every map: no fade (screenshots and tests see the final frame). */
export const BASE_MAP_OPTIONS: L.MapOptions = {
  fadeAnimation: false,
  zoomControl: true,
  minZoom: 3,
  maxZoom: 18,
  worldCopyJump: false,
  keyboard: true,
};
