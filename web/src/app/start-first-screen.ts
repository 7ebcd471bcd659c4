/**
 * The app's query cache, with a company link's first calls started as this module is evaluated:
 * the entry imports it before React, so on a phone the answers are on their way while React's
 * code is evaluated and the first screen renders (they used to start only after React's first
 * commit, one after the other). Nothing waits for them: the first render paints skeletons.
 */
import { createQueryClient } from '@/lib/query-client';
import { startFirstScreen } from './first-screen';

export const appQueryClient = createQueryClient();
void startFirstScreen(appQueryClient, window.location);
