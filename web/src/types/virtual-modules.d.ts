/** Built by build-plugins/basemap-tiles.ts: where the basemap's vector tiles are, and which exist. */
declare module 'virtual:basemap-tiles' {
  const tiles: {
    /** The tile set's URL; a tile is `${url}/${z}/${x}/${y}.json`. */
    url: string;
    /** The zooms tiles are cut at, ascending. */
    zooms: number[];
    /** County borders are in the tiles from this zoom up. */
    countyMinZoom: number;
    /** Tile coordinates run from 0 to extent across a tile. */
    extent: number;
    /** For each zoom, the rows with tiles: `[y, x0, x1, x0, x1, ...]`, inclusive x ranges. */
    present: Record<number, number[][]>;
  };
  export default tiles;
}
