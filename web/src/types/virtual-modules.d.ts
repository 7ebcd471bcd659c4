/** Built by build-plugins/county-lines.ts: inner county borders of each state, as TopoJSON. */
declare module 'virtual:county-lines' {
  import type { MultiLineString, Topology } from 'topojson-specification';
  const topology: Topology<{ lines: MultiLineString }>;
  export default topology;
}
