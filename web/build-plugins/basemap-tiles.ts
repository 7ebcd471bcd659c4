/**
 * The offline basemap as static vector tiles, cut at build time from us-atlas (US Census Bureau
 * cartographic boundaries, 1:10,000,000): land, state borders and, from COUNTY_MIN_ZOOM, the
 * borders between counties of one state. A map asks only for the tiles of its view at the data
 * zoom nearest under its own (components/map/basemap.ts draws them on canvases), so a phone at
 * city zoom fetches a tile or two of under 1 KB instead of the whole country's outlines (the state
 * file was 35 KB gzip, the county lines 128 KB, both JavaScript modules).
 *
 * Tiles are Web Mercator z/x/y, clipped and simplified per zoom by geojson-vt, written as JSON:
 * `{"land": rings, "states": lines, "counties": lines}`, each ring or line one flat array of
 * integer tile coordinates (0 to EXTENT, a little past it at the edges), the first pair absolute
 * and the others the difference from the one before (short numbers that gzip well).
 *
 * `virtual:basemap-tiles` gives the app the set's URL (named by a hash of its content, so a new
 * set never mixes with a cached old one), its zooms and which tiles exist (the ocean has none);
 * the build writes the tiles under dist/basemap/<hash>/, and the dev server serves them from
 * memory.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FeatureCollection } from 'geojson';
import GeoJSONVT from 'geojson-vt';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, GeometryObject, Topology } from 'topojson-specification';
import type { Plugin } from 'vite';

const ID = 'virtual:basemap-tiles';
const RESOLVED = `\0${ID}`;

/** The zooms tiles are cut at; a map at any other zoom draws the nearest one under it. */
export const DATA_ZOOMS = [3, 5, 7, 8];
/** County borders are in the tiles from this zoom up (city level). */
export const COUNTY_MIN_ZOOM = 7;
/** Tile coordinates run from 0 to EXTENT across a tile (16 units a pixel at 256 px). */
export const EXTENT = 4096;

interface TileSet {
  /** The set's folder, `basemap/<hash>`, under the site's root. */
  folder: string;
  /** Tile path (`z/x/y.json`) to its JSON text. */
  tiles: Map<string, string>;
  /** For each data zoom, the rows that have tiles: `[y, x0, x1, x0, x1, ...]` with inclusive x ranges. */
  present: Record<number, number[][]>;
}

function readTopology<T extends Record<string, GeometryCollection>>(name: string): Topology<T> {
  const file = createRequire(import.meta.url).resolve(`us-atlas/${name}`);
  return JSON.parse(readFileSync(file, 'utf8')) as Topology<T>;
}

/** The three layers as GeoJSON: land polygons, every state border and coast once, inner county borders. */
function layers() {
  const states = readTopology<{ states: GeometryCollection }>('states-10m.json');
  const counties = readTopology<{ counties: GeometryCollection }>('counties-10m.json');
  const stateOf = (county: GeometryObject) => String(county.id).slice(0, 2);
  return {
    land: feature(states, states.objects.states) as FeatureCollection,
    states: mesh(states, states.objects.states),
    // Coasts and state borders come from the state layer: only borders inside one state here.
    counties: mesh(counties, counties.objects.counties, (a, b) => a !== b && stateOf(a) === stateOf(b)),
  };
}

/** A tile's rings or lines, each one flat array: the first point, then the step to each next one. */
function encodeRings(tile: ReturnType<GeoJSONVT['getTile']>): number[][] {
  const rings: number[][] = [];
  for (const item of tile?.features ?? []) {
    if (item.type === 1) continue;
    for (const ring of item.geometry) {
      const flat: number[] = [];
      let [previousX, previousY] = [0, 0];
      for (const [x, y] of ring) {
        if (flat.length > 0 && x === previousX && y === previousY) continue;
        flat.push(x - previousX, y - previousY);
        [previousX, previousY] = [x, y];
      }
      if (flat.length >= 4) rings.push(flat);
    }
  }
  return rings;
}

/** Rows of tile keys as `[y, x0, x1, ...]` inclusive ranges: a compact list of which tiles exist. */
function rowsOf(keys: Array<[number, number]>): number[][] {
  const byRow = new Map<number, number[]>();
  for (const [x, y] of keys) byRow.set(y, [...(byRow.get(y) ?? []), x]);
  return [...byRow.entries()]
    .sort(([a], [b]) => a - b)
    .map(([y, xs]) => {
      xs.sort((a, b) => a - b);
      const row = [y];
      let start = xs[0]!;
      let end = start;
      for (const x of xs.slice(1)) {
        if (x === end + 1) {
          end = x;
          continue;
        }
        row.push(start, end);
        start = end = x;
      }
      row.push(start, end);
      return row;
    });
}

export function buildTileSet(): TileSet {
  const source = layers();
  const maxZoom = Math.max(...DATA_ZOOMS);
  // Split down to the deepest data zoom at once (indexMaxPoints 0), so tileCoords lists every tile.
  const options = { maxZoom, indexMaxZoom: maxZoom, indexMaxPoints: 0, extent: EXTENT, buffer: 64, tolerance: 3 };
  const index = {
    land: new GeoJSONVT(source.land, options),
    states: new GeoJSONVT({ type: 'Feature', properties: {}, geometry: source.states }, options),
    counties: new GeoJSONVT({ type: 'Feature', properties: {}, geometry: source.counties }, options),
  };
  const tiles = new Map<string, string>();
  const present: Record<number, number[][]> = {};
  for (const z of DATA_ZOOMS) {
    const keys = new Map<string, [number, number]>();
    for (const layer of Object.values(index)) for (const coord of layer.tileCoords) if (coord.z === z) keys.set(`${coord.x}/${coord.y}`, [coord.x, coord.y]);
    const kept: Array<[number, number]> = [];
    for (const [key, [x, y]] of keys) {
      const body = {
        land: encodeRings(index.land.getTile(z, x, y)),
        states: encodeRings(index.states.getTile(z, x, y)),
        counties: z >= COUNTY_MIN_ZOOM ? encodeRings(index.counties.getTile(z, x, y)) : [],
      };
      if (body.land.length + body.states.length + body.counties.length === 0) continue;
      tiles.set(`${z}/${key}.json`, JSON.stringify(body));
      kept.push([x, y]);
    }
    present[z] = rowsOf(kept);
  }
  const hash = createHash('sha256');
  for (const [name, text] of [...tiles].sort(([a], [b]) => a.localeCompare(b))) hash.update(name).update(text);
  return { folder: `basemap/${hash.digest('hex').slice(0, 10)}`, tiles, present };
}

export function basemapTiles(): Plugin {
  let set: TileSet | null = null;
  let base = '/';
  let outDir = 'dist';
  let testing = false;
  const tileSet = () => (set ??= buildTileSet());
  return {
    name: 'nearcare-basemap-tiles',
    configResolved(config) {
      base = config.base;
      outDir = path.resolve(config.root, config.build.outDir);
      testing = config.mode === 'test';
    },
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      // Component tests (jsdom) draw no canvas: an empty set spares every test worker that loads
      // the map the cutting of the whole country (seconds of CPU each).
      const { folder, present } = testing ? { folder: 'basemap/none', present: {} } : tileSet();
      const info = { url: `${base}${folder}`, zooms: DATA_ZOOMS, countyMinZoom: COUNTY_MIN_ZOOM, extent: EXTENT, present };
      return `export default ${JSON.stringify(info)};\n`;
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const { folder, tiles } = tileSet();
        const prefix = `${base}${folder}/`;
        const text = request.url?.startsWith(prefix) ? tiles.get(request.url.slice(prefix.length)) : undefined;
        if (text === undefined) return next();
        response.setHeader('Content-Type', 'application/json');
        response.end(text);
      });
    },
    writeBundle() {
      const { folder, tiles } = tileSet();
      const target = path.join(outDir, folder);
      // A set is named by its content: one already written is the same set.
      if (!existsSync(path.join(target, 'complete'))) {
        for (const [name, text] of tiles) {
          const file = path.join(target, name);
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, text);
        }
        writeFileSync(path.join(target, 'complete'), '');
      }
      // scripts/prune-assets.mjs keeps this set and the previous build's, as it does the chunks.
      mkdirSync(path.join(outDir, '.vite'), { recursive: true });
      writeFileSync(path.join(outDir, '.vite/basemap.json'), JSON.stringify({ folder }));
    },
  };
}
