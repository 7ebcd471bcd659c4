/**
 * Typed access to the browser storage the marketplace keeps between pages: the chosen employer
 * (local storage, so registration can prefill it) and the selected provider.
 */

export interface StoredEmployer {
  id: number | string;
  companyName: string;
  status: 'active' | 'inactive' | 'pending';
}

export interface SelectedProvider {
  providerId: number;
  locationId: number;
  name: string;
  locationName?: string;
}

const EMPLOYER_KEY = 'employer';
const SELECTED_PROVIDER_KEY = 'selectedProvider';
const REDIRECT_KEY = 'redirect';

function read<T>(storage: Storage, key: string): T | null {
  try {
    const text = storage.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

function write(storage: Storage, key: string, value: unknown): void {
  try {
    if (value === null || value === undefined) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing can refuse storage; the page still works for this visit.
  }
}

export const storedEmployer = {
  get: () => read<StoredEmployer>(window.localStorage, EMPLOYER_KEY),
  set: (employer: StoredEmployer | null) => write(window.localStorage, EMPLOYER_KEY, employer),
};

export const selectedProvider = {
  get: () => read<SelectedProvider>(window.localStorage, SELECTED_PROVIDER_KEY),
  set: (provider: SelectedProvider | null) => write(window.localStorage, SELECTED_PROVIDER_KEY, provider),
};

export const redirectTarget = {
  get: () => read<string>(window.localStorage, REDIRECT_KEY),
  set: (path: string | null) => write(window.localStorage, REDIRECT_KEY, path),
};

/** The last marketplace search origin: profiles measure distances and directions from it. */
export const lastSearchOrigin = {
  get: () => read<{ lat: number; lng: number }>(window.sessionStorage, 'lastSearchOrigin'),
  set: (origin: { lat: number; lng: number } | null) => write(window.sessionStorage, 'lastSearchOrigin', origin),
};

/**
 * The member's last marketplace search as its query string (local storage, cleared by Sign Out):
 * the marketplace opened without a search (Update My Provider, the menu) starts from it.
 */
export const lastMarketSearch = {
  get: () => read<string>(window.localStorage, 'lastMarketSearch'),
  set: (query: string | null) => write(window.localStorage, 'lastMarketSearch', query),
};

/** Session-scoped JSON values (the marketplace search state survives a trip to a profile). */
export const sessionValue = {
  get: <T>(key: string) => read<T>(window.sessionStorage, key),
  set: (key: string, value: unknown) => write(window.sessionStorage, key, value),
};

/** Whether the member chose to add family after eligibility ('yes' or 'no'); the membership steps read it. */
export const addFamilyChoice = {
  get: () => read<'yes' | 'no'>(window.localStorage, 'addFam'),
  set: (choice: 'yes' | 'no' | null) => write(window.localStorage, 'addFam', choice),
};

/** The email typed at login or registration, prefilled by the password and confirm-email screens. */
export const storedEmail = {
  get: () => read<string>(window.localStorage, 'email'),
  set: (email: string | null) => write(window.localStorage, 'email', email),
};

/** The employer name the eligibility call answers with (personal info save). */
export const storedEmployerName = {
  get: () => read<string>(window.localStorage, 'employerName'),
  set: (name: string | null) => write(window.localStorage, 'employerName', name),
};

/** The member as the last personal-info save returned it. */
export const storedUser = {
  get: <T>() => read<T>(window.localStorage, 'user'),
  set: (user: unknown) => write(window.localStorage, 'user', user),
};

const selectedDependentListeners = new Set<() => void>();

/**
 * The family member the marketplace and enrolment act on, when it is not the signed-in member
 * (session storage). Setting it tells subscribers, so the card buttons follow at once.
 */
export const selectedDependent = {
  get: () => read<number>(window.sessionStorage, 'selectedDependent'),
  set: (id: number | null) => {
    if (read<number>(window.sessionStorage, 'selectedDependent') === id) return;
    write(window.sessionStorage, 'selectedDependent', id);
    for (const listener of selectedDependentListeners) listener();
  },
  subscribe: (listener: () => void) => {
    selectedDependentListeners.add(listener);
    return () => {
      selectedDependentListeners.delete(listener);
    };
  },
};
