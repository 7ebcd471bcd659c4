/**
 * The app's query cache, with a company link's first calls started as this module is evaluated:
 * the entry imports it before React, so on a phone the answers are on their way while React's
 * code is evaluated and the first screen renders (they used to start only after React's first
 * commit, one after the other). The entry holds the first render a little for them (main.tsx).
 * A link the server painted brings its answers in the page: they are cached at once.
 */
import { createQueryClient } from '@/lib/query-client';
import { readPaintedAnswers, startFirstScreen } from './first-screen';

export const appQueryClient = createQueryClient();
/** Settles once a company link's first answers are in the cache (at once when none was started). */
export const firstScreenCached = startFirstScreen(appQueryClient, window.location, readPaintedAnswers(document, window.location));
