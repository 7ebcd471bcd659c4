/**
 * The basemap: US state outlines from us-atlas drawn as a vector layer (no tile server, works
 * offline), or raster tiles when VITE_TILE_URL is set for production.
 */
import L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { env } from '@/config/env';
import 'leaflet/dist/leaflet.css';
import './map.css';

let statesPromise: Promise<GeoJSON.FeatureCollection> | null = null;

/** Loads and converts the state outlines once per page. */
function loadStates(): Promise<GeoJSON.FeatureCollection> {
  statesPromise ??= import('us-atlas/states-10m.json').then((module) => {
    const topology = (module.default ?? module) as unknown as Topology<{ states: GeometryCollection }>;
    return feature(topology, topology.objects.states) as GeoJSON.FeatureCollection;
  });
  return statesPromise;
}

/** Adds the basemap to a map; returns a function that removes it. */
export function addBasemap(map: L.Map): () => void {
  if (env.tileUrl) {
    const tiles = L.tileLayer(env.tileUrl, { attribution: env.tileAttribution, maxZoom: 19 }).addTo(map);
    return () => tiles.remove();
  }
  map.getContainer().classList.add('nc-vector-basemap');
  map.attributionControl?.addAttribution('Boundaries: US Census Bureau');
  let layer: L.GeoJSON | null = null;
  let removed = false;
  void loadStates().then((states) => {
    if (removed) return;
    layer = L.geoJSON(states, {
      interactive: false,
      style: { color: '#9aa6b5', weight: 1, fillColor: '#ffffff', fillOpacity: 1 },
    }).addTo(map);
    layer.bringToBack();
  });
  return () => {
    removed = true;
    layer?.remove();
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
