// Runs after `vite build` into a dist/ that was not emptied (vite.config.ts: emptyOutDir false).
// Keeps the hashed files of this build and of the previous one, so pages opened on the previous
// build still load their lazy chunks while, and after, the new one is put in place; deletes older
// ones. The previous build's list is kept in dist/.vite/previous-assets.json. The basemap's tile
// sets (dist/basemap/<hash>/, build-plugins/basemap-tiles.ts) are kept and pruned the same way.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'));
const manifest = JSON.parse(await readFile(path.join(dist, '.vite/manifest.json'), 'utf8'));

/** Every file a manifest names (chunks, their CSS and assets), relative to dist/. */
const current = new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]));
const tileSet = await readFile(path.join(dist, '.vite/basemap.json'), 'utf8').then((text) => JSON.parse(text).folder, () => null);
if (tileSet) current.add(tileSet);
const previousFile = path.join(dist, '.vite/previous-assets.json');
const inAssets = [
  ...(await readdir(path.join(dist, 'assets'))).map((name) => `assets/${name}`),
  ...(await readdir(path.join(dist, 'basemap')).catch(() => [])).map((name) => `basemap/${name}`),
];
// Without a record (the first build with this step), whatever was there is the previous build.
const previous = new Set(await readFile(previousFile, 'utf8').then(JSON.parse, () => inAssets.filter((file) => !current.has(file))));

let removed = 0;
for (const file of inAssets) {
  if (current.has(file) || previous.has(file)) continue;
  await rm(path.join(dist, file), { recursive: true });
  removed += 1;
}
await writeFile(previousFile, JSON.stringify([...current].sort()));
console.log(`assets: ${current.size} of this build, ${[...previous].filter((file) => !current.has(file)).length} kept from the previous one, ${removed} older removed`);
