/**
 * `virtual:county-lines`: the borders between counties of the same state, cut at build time from
 * us-atlas `counties-10m.json` (US Census Bureau cartographic boundaries, 1:10,000,000).
 *
 * The map draws coasts and state borders from the state file, so it needs only the inner county
 * borders. Keeping just those arcs (still quantized and delta-encoded, as us-atlas ships them) and
 * dropping county names halves the lazy download (about 260 KB to about 130 KB gzipped) and saves
 * the browser from meshing 3,000 polygons.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { meshArcs } from 'topojson-client';
import type { GeometryCollection, GeometryObject, Topology } from 'topojson-specification';
import type { Plugin } from 'vite';

const ID = 'virtual:county-lines';
const RESOLVED = `\0${ID}`;

function countyLinesTopology(file: string): Topology {
  const counties = JSON.parse(readFileSync(file, 'utf8')) as Topology<{ counties: GeometryCollection }>;
  const stateOf = (county: GeometryObject) => String(county.id).slice(0, 2);
  const inner = meshArcs(counties, counties.objects.counties, (a, b) => a !== b && stateOf(a) === stateOf(b));
  // Renumber the arcs the lines use; a negative index (~i) means the arc runs backwards.
  const kept = new Map<number, number>();
  const arcs: Topology['arcs'] = [];
  const renumber = (index: number) => {
    const original = index < 0 ? ~index : index;
    let next = kept.get(original);
    if (next === undefined) {
      next = arcs.length;
      kept.set(original, next);
      arcs.push(counties.arcs[original]!);
    }
    return index < 0 ? ~next : next;
  };
  const lines = inner.arcs.map((line) => line.map(renumber));
  return {
    type: 'Topology',
    bbox: counties.bbox,
    transform: counties.transform,
    objects: { lines: { type: 'MultiLineString', arcs: lines } },
    arcs,
  };
}

export function countyLines(): Plugin {
  let source: string | null = null;
  return {
    name: 'nearcare-county-lines',
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    load(id) {
      if (id !== RESOLVED) return undefined;
      const file = createRequire(import.meta.url).resolve('us-atlas/counties-10m.json');
      this.addWatchFile(file);
      // JSON.parse of a string literal starts faster than the same data as an object literal.
      source ??= `export default JSON.parse(${JSON.stringify(JSON.stringify(countyLinesTopology(file)))});\n`;
      return source;
    },
  };
}
