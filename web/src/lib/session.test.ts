import { afterEach, describe, expect, it, vi } from 'vitest';
import { hardNavigation } from '@/lib/hard-navigation';
import { getAccessToken, setAccessToken, signOut } from '@/lib/session';
import { addFamilyChoice, selectedDependent, sessionValue, storedEmployer } from '@/lib/storage';

afterEach(() => vi.restoreAllMocks());

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
