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
