/**
 * The clinic waitlists joined in this browser tab, so a card and a profile show the joined state at
 * once and after a reload of the same tab. The server does not yet say which waitlists a member is
 * on; a clinic item or profile carrying `waitlisted: true` (the field asked of it) counts as joined
 * too, and makes the state follow a signed-in member to any browser.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { accessTokenClaims, useSignedIn } from '@/lib/session';

const STORAGE_KEY = 'waitlistJoined';
const listeners = new Set<() => void>();

/** Whose waitlists: the signed-in member (the token's subject) or the signed-out visitor. */
function joiner(): string {
  const subject = accessTokenClaims()?.sub;
  return subject === undefined || subject === null ? 'visitor' : `member:${String(subject)}`;
}

/** The stored text is the snapshot: it only changes when a join is recorded. */
function snapshot(): string {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY) ?? '{}';
  } catch {
    return '{}';
  }
}

function parse(text: string): Record<string, number[]> {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, number[]>) : {};
  } catch {
    return {};
  }
}

/** Records that the current member (or visitor) joined the waitlist of `locationId`. */
export function markWaitlistJoined(locationId: number): void {
  const joined = parse(snapshot());
  const who = joiner();
  const locations = joined[who] ?? [];
  if (locations.includes(locationId)) return;
  joined[who] = [...locations, locationId];
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(joined));
  } catch {
    // Storage refused (private browsing): the state is not kept, the join itself stands.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether the current member (or visitor) is on a clinic's waitlist: as the server says, or joined in this tab. */
export function useWaitlistJoined(): (clinic: { locationId: number; waitlisted?: boolean }) => boolean {
  const signedIn = useSignedIn();
  const text = useSyncExternalStore(subscribe, snapshot, () => '{}');
  return useCallback(
    (clinic) => {
      if (clinic.waitlisted === true) return true;
      const who = signedIn ? joiner() : 'visitor';
      return (parse(text)[who] ?? []).includes(clinic.locationId);
    },
    [text, signedIn],
  );
}
