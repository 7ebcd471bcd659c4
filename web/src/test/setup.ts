import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy and waitFor wait this long before failing: on a busy machine a lazy chunk or a chain
// of answers can take more than the default second, and a wait is not a timing assertion.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.cookie = 'token=; Max-Age=0; path=/';
});

// Failed calls are logged on purpose (the spec logs waitlist and geocoding failures); keep test output quiet.
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'info').mockImplementation(() => {});
});

// jsdom lays nothing out; give elements a size so virtualised lists render a window of rows.
for (const [property, size] of [['clientHeight', 600], ['clientWidth', 800], ['offsetHeight', 600], ['offsetWidth', 800]] as const) {
  Object.defineProperty(HTMLElement.prototype, property, { configurable: true, get: () => size });
}

// jsdom does not scroll; pages that scroll to the top on navigation call this.
Object.defineProperty(window, 'scrollTo', { configurable: true, writable: true, value: () => {} });
