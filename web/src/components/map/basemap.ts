/**
 * The basemap: raster tiles from VITE_TILE_URL when it is set, else the offline vector basemap,
 * drawn on canvases from the static vector tiles the build cuts from us-atlas
 * (build-plugins/basemap-tiles.ts): a light land fill over the water-coloured background, county
 * lines from city zoom, state outlines on top. Each canvas tile fetches only the data tile under
 * it (the nearest data zoom at or below the map's), once per page for all maps, so a view costs
 * a few small tiles and no JavaScript beyond this file.
 */
import L from 'leaflet';
import basemapTiles from 'virtual:basemap-tiles';
import { env } from '@/config/env';
import 'leaflet/dist/leaflet.css';
import './map.css';

/** County lines show from this zoom up: city level. */
export const COUNTY_MIN_ZOOM = basemapTiles.countyMinZoom;

/** Basemap colours; the water and outside colour is the container background in map.css. */
const LAND_COLOR = '#f5f3ee';
const COUNTY_STYLE = { color: '#bcc4ce', width: 1 };
const STATE_STYLE = { color: '#8e9aab', width: 1.5 };

/** Under Leaflet's overlay pane (400), so pins and popups stay above. */
const BASEMAP_PANE = 'ncBasemap';

interface DataTile {
  land: number[][];
  states: number[][];
  counties: number[][];
}

/** Whether the set has a tile at z/x/y (the ocean has none, and is never asked for). */
function tileExists(z: number, x: number, y: number): boolean {
  const row = basemapTiles.present[z]?.find((entry) => entry[0] === y);
  if (!row) return false;
  for (let index = 1; index < row.length; index += 2) if (x >= row[index]! && x <= row[index + 1]!) return true;
  return false;
}

const dataTiles = new Map<string, Promise<DataTile>>();

/** Fetches a data tile once per page; a failed fetch is forgotten so a later view asks again. */
function loadDataTile(z: number, x: number, y: number): Promise<DataTile> {
  const key = `${z}/${x}/${y}`;
  let tile = dataTiles.get(key);
  if (!tile) {
    tile = fetch(`${basemapTiles.url}/${key}.json`).then((response) => {
      if (!response.ok) throw new Error(`basemap tile ${key}: ${response.status}`);
      return response.json() as Promise<DataTile>;
    });
    tile.catch(() => dataTiles.delete(key));
    dataTiles.set(key, tile);
  }
  return tile;
}

/** The data zoom a map zoom draws: the deepest cut at or below it (the shallowest when above all). */
function dataZoomFor(zoom: number): number {
  let chosen = basemapTiles.zooms[0]!;
  for (const z of basemapTiles.zooms) if (z <= zoom) chosen = z;
  return chosen;
}

/** Traces a data tile's flat, delta-encoded rings into the path, mapped to canvas pixels. */
function trace(context: CanvasRenderingContext2D, rings: number[][], scale: number, offsetX: number, offsetY: number, close: boolean) {
  for (const ring of rings) {
    let x = 0;
    let y = 0;
    for (let index = 0; index < ring.length; index += 2) {
      x += ring[index]!;
      y += ring[index + 1]!;
      const px = x * scale - offsetX;
      const py = y * scale - offsetY;
      if (index === 0) context.moveTo(px, py);
      else context.lineTo(px, py);
    }
    if (close) context.closePath();
  }
}

/** Draws the part of a data tile that falls on a canvas tile at `coords`. */
function drawTile(canvas: HTMLCanvasElement, coords: L.Coords, dataZoom: number, tile: DataTile, tileSize: number) {
  const ratio = window.devicePixelRatio || 1;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.scale(ratio, ratio);
  // The data tile spans 2^(z - dataZoom) canvas tiles; its units are 1/extent of its width.
  const span = 2 ** (coords.z - dataZoom);
  const scale = (tileSize * span) / basemapTiles.extent;
  const offsetX = (coords.x - Math.floor(coords.x / span) * span) * tileSize;
  const offsetY = (coords.y - Math.floor(coords.y / span) * span) * tileSize;
  context.beginPath();
  trace(context, tile.land, scale, offsetX, offsetY, true);
  context.fillStyle = LAND_COLOR;
  context.fill('nonzero');
  context.lineJoin = 'round';
  for (const [rings, style] of [
    [coords.z >= COUNTY_MIN_ZOOM ? tile.counties : [], COUNTY_STYLE],
    [tile.states, STATE_STYLE],
  ] as const) {
    if (rings.length === 0) continue;
    context.beginPath();
    trace(context, rings, scale, offsetX, offsetY, false);
    context.strokeStyle = style.color;
    context.lineWidth = style.width;
    context.stroke();
  }
}

/** The vector basemap as a grid of canvases, each drawn from the data tile under it. */
const OutlineLayer = L.GridLayer.extend({
  createTile(this: L.GridLayer, coords: L.Coords, done: L.DoneCallback) {
    const size = this.getTileSize();
    const canvas = document.createElement('canvas');
    const ratio = window.devicePixelRatio || 1;
    canvas.width = size.x * ratio;
    canvas.height = size.y * ratio;
    const dataZoom = dataZoomFor(coords.z);
    const span = 2 ** (coords.z - dataZoom);
    const [x, y] = [Math.floor(coords.x / span), Math.floor(coords.y / span)];
    if (!tileExists(dataZoom, x, y)) {
      // Leaflet wants the tile first; the callback after it.
      queueMicrotask(() => done(undefined, canvas));
      return canvas;
    }
    loadDataTile(dataZoom, x, y).then(
      (tile) => {
        drawTile(canvas, coords, dataZoom, tile, size.x);
        done(undefined, canvas);
      },
      (error: Error) => done(error, canvas),
    );
    return canvas;
  },
}) as unknown as new (options?: L.GridLayerOptions) => L.GridLayer;

/** Adds the basemap to a map; returns a function that removes it. */
export function addBasemap(map: L.Map): () => void {
  if (env.tileUrl) {
    const tiles = L.tileLayer(env.tileUrl, { attribution: env.tileAttribution, maxZoom: 19 }).addTo(map);
    return () => tiles.remove();
  }
  map.getContainer().classList.add('nc-vector-basemap');
  if (!map.getPane(BASEMAP_PANE)) {
    const pane = map.createPane(BASEMAP_PANE);
    pane.style.zIndex = '200';
    pane.style.pointerEvents = 'none';
  }
  const outlines = new OutlineLayer({ pane: BASEMAP_PANE, attribution: 'Boundaries: US Census Bureau', className: 'nc-basemap-tiles' }).addTo(map);
  return () => outlines.remove();
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
