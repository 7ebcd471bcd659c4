// What the first screen (/marketplace, where / redirects) downloads: the entry and its static
// imports as dist/.vite/manifest.json lists them (the <script> and its modulepreloads), with raw,
// gzip and brotli sizes (node:zlib, level 9 and 11); then the map, which a wide screen shows at
// once (so its first screen is both), the basemap's vector tiles, and the account screens, which
// load only when needed. The browser test `phone-keyboard: measures ...` counts what a browser
// actually fetches.
// Usage: node scripts/first-load-size.mjs [dist]
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const TARGET_GZIP_KB = 170;

/** The JS files a manifest key loads before it runs: itself and its static imports, recursively. */
function staticClosure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(imported, seen);
  return seen;
}

function sizes(file) {
  const bytes = readFileSync(path.join(dist, file));
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(7);

function table(title, files) {
  const rows = [...files].map((file) => ({ file, ...sizes(file) })).sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, row) => ({ raw: sum.raw + row.raw, gzip: sum.gzip + row.gzip, brotli: sum.brotli + row.brotli }), { raw: 0, gzip: 0, brotli: 0 });
  console.log(`\n${title}`);
  console.log(`${'file'.padEnd(44)} ${'raw KB'.padStart(7)} ${'gzip KB'.padStart(7)} ${'br KB'.padStart(7)}`);
  for (const row of rows) console.log(`${row.file.replace(/^assets\//, '').padEnd(44)} ${kb(row.raw)} ${kb(row.gzip)} ${kb(row.brotli)}`);
  console.log(`${`total (${rows.length} files)`.padEnd(44)} ${kb(total.raw)} ${kb(total.gzip)} ${kb(total.brotli)}`);
  return total;
}

const first = staticClosure('index.html');
const phone = table('First screen on a phone (/marketplace, the list): entry and static imports', first);
const later = (key) => [...staticClosure(key)].filter((file) => !first.has(file));
const map = table('The map, which a wide screen shows at once (a phone with View Map)', later('src/features/marketplace/components/market-map.tsx'));
table('Later: the account screens (/account/*)', later('src/app/routes/account.tsx'));

// The basemap's tiles are data, fetched by view: a city view needs one or two of them.
const { folder } = JSON.parse(readFileSync(path.join(dist, '.vite/basemap.json'), 'utf8'));
const tileSizes = readdirSync(path.join(dist, folder), { recursive: true })
  .filter((name) => name.endsWith('.json'))
  .map((name) => gzipSync(readFileSync(path.join(dist, folder, name)), { level: 9 }).length)
  .sort((a, b) => a - b);
const tilesTotal = tileSizes.reduce((sum, size) => sum + size, 0);
console.log(`\nbasemap tiles (${folder}): ${tileSizes.length} tiles, ${kb(tilesTotal).trim()} KB gzip in all; one tile: median ${kb(tileSizes[tileSizes.length >> 1]).trim()} KB, largest ${kb(tileSizes.at(-1)).trim()} KB`);

const wide = phone.gzip + map.gzip;
const verdict = wide / 1024 <= TARGET_GZIP_KB ? 'within' : 'OVER';
console.log(`\nfirst screen JS: phone ${kb(phone.gzip).trim()} KB gzip; wide screen with the map ${kb(wide).trim()} KB gzip, ${kb(phone.brotli + map.brotli).trim()} KB brotli: ${verdict} the ${TARGET_GZIP_KB} KB gzip target`);
