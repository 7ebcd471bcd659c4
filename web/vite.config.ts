/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { basemapTiles } from './build-plugins/basemap-tiles.ts';

// The API answers on the same origin in production; in development Vite forwards its paths.
const apiTarget = process.env.NEARCARE_API ?? 'http://127.0.0.1:8080';
const apiPrefixes = ['/member', '/market', '/dpcproviders', '/health', '/openapi.json'];

export default defineConfig({
  plugins: [react(), basemapTiles()],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      // Only the parts of Leaflet the maps use (see the module); its types stay Leaflet's.
      { find: /^leaflet$/, replacement: fileURLToPath(new URL('./src/components/map/leaflet-lean.js', import.meta.url)) },
    ],
  },
  css: {
    modules: {
      // `result-card__card`, not a hash: the server paints a search link's first screen with these
      // classes (crates/api/src/first_paint.rs), and module file names are unique in src/.
      generateScopedName: (local, filename) => `${basename(filename.split('?')[0]!).replace(/\.module\.css$/, '')}__${local}`,
    },
  },
  server: {
    proxy: Object.fromEntries(apiPrefixes.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: the first-load measure (scripts/first-load-size.mjs) and the prune
    // step read it.
    manifest: true,
    // A rebuild under a running server keeps the previous build's hashed files, so open pages can
    // still load their lazy chunks; scripts/prune-assets.mjs then deletes the ones older than it.
    emptyOutDir: false,
    rolldownOptions: {
      output: {
        // Named vendor chunks: React and the router load first; Leaflet only with a map.
        advancedChunks: {
          groups: [
            { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'vendor-router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'vendor-tanstack', test: /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/ },
            // The virtualised lists (the filter drawer's, the solution listings) only.
            { name: 'vendor-virtual', test: /node_modules[\\/]@tanstack[\\/](react-virtual|virtual-core)[\\/]/ },
            { name: 'vendor-leaflet', test: /node_modules[\\/]leaflet[\\/]/ },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}', 'tools/*/*.test.js'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    // The machine is shared (2 cores, several builds at once): a bound on waiting, not a timing.
    testTimeout: 30_000,
    // Vitest keeps a core for itself by default, which on this 2-core machine is one worker for
    // 58 files whose time is mostly jsdom's set-up in the worker.
    maxWorkers: availableParallelism(),
  },
});
