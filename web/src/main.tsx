// First, before React's code is evaluated: a company link's first calls start as this module runs.
import { appQueryClient, firstScreenCached } from '@/app/start-first-screen';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import '@/styles/global.css';

/**
 * How long the first render waits for a company link's answers. On a throttled phone they are
 * usually in by the time the scripts have run, but their callbacks only fill the cache after the
 * task in which React's first render runs: without the wait that render paints skeletons and a
 * second full render (about a second of a slow phone's CPU) brings the cards.
 */
const FIRST_RENDER_WAIT_MS = 600;

// Not a top-level await: that makes the bundler split the entry into many small chunks.
void Promise.race([firstScreenCached, new Promise((resolve) => window.setTimeout(resolve, FIRST_RENDER_WAIT_MS))]).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App queryClient={appQueryClient} />
    </StrictMode>,
  ),
);
