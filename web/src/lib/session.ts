import { useSyncExternalStore } from 'react';
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

/** The access token lives 12 hours on the server; the cookie keeps it no longer. */
const TOKEN_MAX_AGE_SECONDS = 12 * 60 * 60;

/**
 * `; Secure` when the app is served over https (its public URL), so the browser never sends the
 * token over plain http; empty on http (a local server), where a Secure cookie would not be kept.
 */
function secureAttribute(): string {
  return window.location.protocol === 'https:' ? '; Secure' : '';
}

/** Stores an access token in the `token` cookie (sign-in, a refreshed token after eligibility). */
export function setAccessToken(token: string): void {
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${TOKEN_MAX_AGE_SECONDS}; path=/; SameSite=Lax${secureAttribute()}`;
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

/**
 * Clears local storage, session storage (the selected family member, the kept search) and the
 * token cookie, as Sign Out does, then goes to /login.
 */
export function signOut(): void {
  window.localStorage.clear();
  window.sessionStorage.clear();
  clearAccessToken();
  hardNavigation.assign('/login');
}
