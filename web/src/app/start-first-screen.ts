/**
 * The app's query cache, with the first screen's calls started as this module is evaluated: the
 * entry imports it before React, so on a phone the answers are on their way while React's code is
 * evaluated (they used to start only after React's first commit, one after the other).
 */
import { createQueryClient } from '@/lib/query-client';
import { prefetchFirstScreen } from './first-screen';

/** How long the first render waits for the first screen's answers: a slow answer never leaves the page blank for long. */
const FIRST_SCREEN_WAIT_MS = 1500;

export const appQueryClient = createQueryClient();
const prefetched = prefetchFirstScreen(appQueryClient, window.location);

/**
 * Waits (at most FIRST_SCREEN_WAIT_MS) for the first screen's answers, so the first render paints
 * the results rather than skeletons followed by a second render; a company link's coordinates are
 * written into the URL first, as the page would after geocoding, so the router starts from them.
 */
export async function firstScreenAnswered(): Promise<void> {
  const completed = await Promise.race([prefetched, new Promise<null>((resolve) => setTimeout(() => resolve(null), FIRST_SCREEN_WAIT_MS))]);
  if (completed) window.history.replaceState(window.history.state, '', `${window.location.pathname}?${completed}`);
}
