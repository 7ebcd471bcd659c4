import { afterEach, describe, expect, it, vi } from 'vitest';
import { hardNavigation } from '@/lib/hard-navigation';
import { apiRequest } from '@/lib/api-client';
import { getAccessToken, recordActivity, sessionLimitPassed, setAccessToken, signedOutMessage, signOut } from '@/lib/session';
import { addFamilyChoice, selectedDependent, sessionValue, storedEmployer } from '@/lib/storage';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A token with these claims (the signature is not checked by the browser). */
function tokenWith(claims: Record<string, unknown>): string {
  const part = btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `header.${part}.signature`;
}

describe('signOut', () => {
  it('clears local storage, session storage (the selected family member) and the token cookie, then goes to /login', () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    setAccessToken('header.payload.signature');
    storedEmployer.set({ id: 1, companyName: 'Acme Corporation', status: 'active' });
    addFamilyChoice.set('yes');
    selectedDependent.set(22);
    sessionValue.set('marketplace-search', { address: 'Denver' });
    signOut();
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
    expect(selectedDependent.get()).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(assign).toHaveBeenCalledWith('/login');
  });
});

describe('the token cookie', () => {
  /** What the next cookie writes set, with the page's protocol as given. */
  function writtenCookies(protocol: 'http:' | 'https:', write: () => void): string[] {
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, protocol });
    const written: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      written.push(value);
      descriptor?.set?.call(document, value);
    });
    write();
    return written;
  }

  it('is Secure when the app is served over https, so the token never travels over plain http', () => {
    const written = writtenCookies('https:', () => setAccessToken('header.payload.signature'));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^token=header\.payload\.signature;/);
    expect(written[0]).toMatch(/; Secure$/);
    expect(written[0]).toContain('SameSite=Lax');
  });

  it('is not Secure on a plain-http server (a local run), where the browser would drop it', () => {
    const written = writtenCookies('http:', () => setAccessToken('header.payload.signature'));
    expect(written[0]).not.toContain('Secure');
    expect(getAccessToken()).toBe('header.payload.signature');
  });
});

describe('sessions', () => {
  it('Sign Out ends the session on the server with the token it held', () => {
    vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    setAccessToken('header.payload.signature');
    signOut();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/member/app/logout');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['x-access-token']).toBe('header.payload.signature');
    expect(init.keepalive).toBe(true);
  });

  it('a call answered session_ended signs out and leaves the reason for the login page', async () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    const message = 'This session was signed out from another device. Please log in again.';
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 'session_ended', reason: 'ended_elsewhere', message }), { status: 401 })));
    setAccessToken('header.payload.signature');
    await expect(apiRequest('/member/app/member/info')).rejects.toMatchObject({ status: 401, code: 'session_ended' });
    expect(getAccessToken()).toBeNull();
    expect(signedOutMessage()).toBe(message);
    expect(assign).toHaveBeenCalledWith('/login');
  });

  it('another 401 (a wrong password, a link) does not sign out', async () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 'not_eligible_on_plan', message: 'no' }), { status: 401 })));
    setAccessToken('header.payload.signature');
    await expect(apiRequest('/member/app/confirm/info', { body: {} })).rejects.toMatchObject({ status: 401 });
    expect(getAccessToken()).toBe('header.payload.signature');
    expect(assign).not.toHaveBeenCalled();
  });

  it('tells when the idle or absolute limit has passed by the browser clock', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const seconds = now / 1000;
    const token = tokenWith({ sub: '1', sid: '9', iat: seconds - 3600, auth_time: seconds - 86_400, exp: seconds + 29 * 86_400, idle: 12 * 3600 });
    recordActivity(now - 3600_000);
    expect(sessionLimitPassed(token, now)).toBeNull();
    recordActivity(now - 13 * 3600_000);
    expect(sessionLimitPassed(token, now)).toBe('You were signed out after 12 hours without activity. Please log in again.');
    // Reissued since (a switch, eligibility): `iat` is later than the sign-in, `auth_time` is not.
    const old = tokenWith({ sub: '1', sid: '9', iat: seconds - 86_400, auth_time: seconds - 30 * 86_400, exp: seconds, idle: 12 * 3600 });
    recordActivity(now);
    expect(sessionLimitPassed(old, now)).toBe('You were signed out: a session lasts at most 30 days after you log in. Please log in again.');
  });
});
