// What the first screen (/marketplace, where / redirects) downloads: the entry and its static
// imports as dist/.vite/manifest.json lists them (the <script> and its modulepreloads), with raw,
// gzip and brotli sizes (node:zlib, level 9 and 11), then what loads only when needed (the map,
// with Leaflet and the state outlines; the account screens), for comparison.
// Usage: node scripts/first-load-size.mjs [dist]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const TARGET_GZIP_KB = 200;

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
const total = table('First screen (/marketplace): entry and static imports', first);
const later = (key) => [...staticClosure(key)].filter((file) => !first.has(file));
table('Later: the map (after the first screen has rendered)', [
  ...later('src/features/marketplace/components/market-map.tsx'),
  ...Object.values(manifest).filter((chunk) => /states-10m/.test(chunk.file)).map((chunk) => chunk.file),
]);
table('Later: the account screens (/account/*)', later('src/app/routes/account.tsx'));
const verdict = total.gzip / 1024 <= TARGET_GZIP_KB ? 'within' : 'OVER';
console.log(`\nfirst screen: ${kb(total.gzip).trim()} KB gzip, ${kb(total.brotli).trim()} KB brotli: ${verdict} the ${TARGET_GZIP_KB} KB gzip target`);
