import { useEffect, useSyncExternalStore } from 'react';
import { env } from '@/config/env';
import { hardNavigation } from '@/lib/hard-navigation';

const TOKEN_COOKIE = 'token';

/** Reads the access token from the `token` cookie; null when signed out. */
export function getAccessToken(): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TOKEN_COOKIE) {
      const value = decodeURIComponent(rest.join('='));
      return value ? value : null;
    }
  }
  return null;
}

/** How long the cookie keeps a token whose `exp` cannot be read. */
const FALLBACK_MAX_AGE_SECONDS = 12 * 60 * 60;

/**
 * `; Secure` when the app is served over https (its public URL), so the browser never sends the
 * token over plain http; empty on http (a local server), where a Secure cookie would not be kept.
 */
function secureAttribute(): string {
  return window.location.protocol === 'https:' ? '; Secure' : '';
}

/**
 * Stores an access token in the `token` cookie (sign-in, a refreshed token after eligibility, a
 * switch of family member). The cookie lives as long as the token's session may (its `exp`, the
 * absolute limit); the server ends it sooner when it idles or is signed out.
 */
export function setAccessToken(token: string): void {
  const exp = accessTokenClaims(token)?.exp;
  const maxAge = typeof exp === 'number' ? Math.max(0, Math.floor(exp - Date.now() / 1000)) : FALLBACK_MAX_AGE_SECONDS;
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${maxAge}; path=/; SameSite=Lax${secureAttribute()}`;
  recordActivity();
  notifySessionChanged();
}

/** Removes the token cookie without leaving the page. */
export function clearAccessToken(): void {
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; path=/; SameSite=Lax${secureAttribute()}`;
  notifySessionChanged();
}

const listeners = new Set<() => void>();

/** Tells subscribers that the token cookie changed (sign-in and sign-out call this). */
export function notifySessionChanged(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Returns whether a token cookie is present. Member info (nextStep, subscription, family)
 * plugs in beside this once the accounts feature loads it.
 */
export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribe, () => getAccessToken() !== null, () => false);
}

/** The claims of the access token (its middle part), or null when there is none or it cannot be read. */
export function accessTokenClaims(token: string | null = getAccessToken()): Record<string, unknown> | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims = JSON.parse(atob(base64)) as unknown;
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Who a token signs in: a DPC provider (claim `role: "provider"`), a member, or nobody. */
export type AccountKind = 'provider' | 'member' | null;

/** The kind of account the token belongs to; provider tokens carry `role: "provider"` (docs/provider-contract.md). */
export function accountKind(token: string | null = getAccessToken()): AccountKind {
  if (!token) return null;
  return accessTokenClaims(token)?.role === 'provider' ? 'provider' : 'member';
}

/** The signed-in account's kind, following sign-in and sign-out like {@link useSignedIn}. */
export function useAccountKind(): AccountKind {
  return useSyncExternalStore(subscribe, () => accountKind(), () => null);
}

/**
 * The subscriber who switched into a family member's account: the token's `act` claim (a member
 * id, or `{sub}` as RFC 8693 writes it). Null for a member signed in as themselves.
 */
export function actingSubscriberId(token: string | null = getAccessToken()): number | null {
  const act = accessTokenClaims(token)?.act;
  const raw = act && typeof act === 'object' ? (act as { sub?: unknown }).sub : act;
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}

const LAST_ACTIVITY_KEY = 'lastActivity';
const SIGNED_OUT_MESSAGE_KEY = 'signedOutMessage';

/**
 * Notes that the session was just used (an answered call with the token): the idle limit counts
 * from the last request, in every tab of this browser (they share the cookie and its session).
 */
export function recordActivity(at: number = Date.now()): void {
  try {
    window.localStorage.setItem(LAST_ACTIVITY_KEY, String(at));
  } catch {
    // Storage refused (private browsing): the server still ends an idle session.
  }
}

function lastActivity(): number | null {
  try {
    const value = Number(window.localStorage.getItem(LAST_ACTIVITY_KEY));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** What the login page says after the session ended by a limit; the server's own words otherwise. */
export const SESSION_TEXTS = {
  idle: (limit: string) => `You were signed out after ${limit} without activity. Please log in again.`,
  expired: (limit: string) => `You were signed out: a session lasts at most ${limit} after you log in. Please log in again.`,
  expiredNow: 'You were signed out: your session reached its time limit. Please log in again.',
} as const;

/** "12 hours", "30 days": a limit in seconds as the server says it. */
export function limitInWords(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  const [count, unit] =
    minutes >= 2 * 24 * 60 && minutes % (24 * 60) === 0
      ? [minutes / (24 * 60), 'day']
      : minutes >= 60 && minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : minutes >= 1
          ? [minutes, 'minute']
          : [seconds, 'second'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * Whether the token's session has passed a limit by this browser's clock: its absolute limit
 * (`exp`) or its idle limit (`idle` seconds since the last answered call). The message to show,
 * or null while it is within both.
 */
export function sessionLimitPassed(token: string | null = getAccessToken(), now: number = Date.now()): string | null {
  const claims = accessTokenClaims(token);
  if (!claims) return null;
  if (typeof claims.exp === 'number' && now >= claims.exp * 1000) {
    // `auth_time` is when the person signed in: the session's limit counts from it.
    const signedIn = typeof claims.auth_time === 'number' ? claims.auth_time : null;
    return signedIn === null ? SESSION_TEXTS.expiredNow : SESSION_TEXTS.expired(limitInWords(claims.exp - signedIn));
  }
  const last = lastActivity();
  if (typeof claims.idle === 'number' && claims.idle > 0 && last !== null && now - last > claims.idle * 1000) {
    return SESSION_TEXTS.idle(limitInWords(claims.idle));
  }
  return null;
}

/** The message the last ended session left for the login page, if any. */
export function signedOutMessage(): string | null {
  try {
    return window.sessionStorage.getItem(SIGNED_OUT_MESSAGE_KEY);
  } catch {
    return null;
  }
}

/** Forgets that message once shown. */
export function clearSignedOutMessage(): void {
  try {
    window.sessionStorage.removeItem(SIGNED_OUT_MESSAGE_KEY);
  } catch {
    // Nothing kept.
  }
}

/** Clears what this browser keeps for the signed-in person: storage and the token cookie. */
function forgetSession(): void {
  window.localStorage.clear();
  window.sessionStorage.clear();
  clearAccessToken();
}

/**
 * Signs out: ends the session on the server (POST /member/app/logout, so a copy of the token
 * stops working everywhere), clears local storage, session storage (the selected family member,
 * the kept search) and the token cookie, then goes to /login. The page leaves at once; the call
 * is sent with `keepalive` so it completes anyway.
 */
export function signOut(): void {
  const token = getAccessToken();
  if (token) {
    void fetch(`${env.apiUrl}/member/app/logout`, {
      method: 'POST',
      headers: { accept: 'application/json', 'x-access-token': token },
      keepalive: true,
    }).catch(() => {
      // Offline: the session still ends at its idle limit.
    });
  }
  forgetSession();
  hardNavigation.assign('/login');
}

/**
 * The session ended (the server answered `session_ended`, or a limit passed by this browser's
 * clock): forgets it as Sign Out does and goes to /login, which shows `message`.
 */
export function endSession(message: string): void {
  forgetSession();
  try {
    window.sessionStorage.setItem(SIGNED_OUT_MESSAGE_KEY, message);
  } catch {
    // The login page shows no message.
  }
  hardNavigation.assign('/login');
}

/**
 * Signs the person out with the reason once the session passes its idle or absolute limit by
 * this browser's clock, checked every half minute and when the tab is shown again: the server
 * refuses the token by then, and a page left open should not look signed in.
 */
export function useSessionLimits(): void {
  const signedIn = useSignedIn();
  useEffect(() => {
    if (!signedIn) return;
    const check = () => {
      const message = sessionLimitPassed();
      if (message) endSession(message);
    };
    check();
    const timer = window.setInterval(check, 30_000);
    document.addEventListener('visibilitychange', check);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, [signedIn]);
}
