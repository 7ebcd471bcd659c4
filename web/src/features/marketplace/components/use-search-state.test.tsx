import { describe, expect, it } from 'vitest';
import { act } from '@testing-library/react';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createQueryClient } from '@/lib/query-client';
import { renderInAppRouter } from '@/test/render';
import type { SearchDispatch } from './use-search-state';
import { useSearchState } from './use-search-state';

const DENVER = { lat: 39.76, lng: -105.02 };
const CHELSEA = { lat: 40.74, lng: -74.0 };

/** Exposes the hook's dispatch and a way to re-render the page for reasons other than the URL. */
const handles: { dispatch?: SearchDispatch; rerender?: () => void } = {};

function Probe() {
  const [, dispatch] = useSearchState();
  const [, setTick] = useState(0);
  handles.dispatch = dispatch;
  handles.rerender = () => setTick((tick) => tick + 1);
  return null;
}

function renderAt(url: string) {
  return renderInAppRouter([{ path: '/marketplace', element: <Probe /> }], url, createQueryClient()).router;
}

describe('useSearchState', () => {
  it("keeps the member's search when a restored address's coordinates arrive after it, across renders that still see the old URL", async () => {
    const router = renderAt('/marketplace?location=10011');
    await act(async () => {
      handles.dispatch!({ type: 'search', origin: DENVER, address: '80211, Denver, CO' });
      // Something else re-renders the page before the router has applied the member's search
      // (the router applies navigations in a transition, after urgent updates such as this one).
      flushSync(() => handles.rerender!());
      // The late geocoding answer for the restored address.
      handles.dispatch!({ type: 'locate', origin: CHELSEA, address: '10011' }, { replace: true });
    });
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('location')).toBe('80211, Denver, CO');
    expect(params.get('lat')).toBe(String(DENVER.lat));
  });

  it('applies a linked address its coordinates when nothing else was searched', async () => {
    const router = renderAt('/marketplace?location=10011');
    await act(async () => {
      handles.dispatch!({ type: 'locate', origin: CHELSEA, address: '10011' }, { replace: true });
    });
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('location')).toBe('10011');
    expect(params.get('lat')).toBe(String(CHELSEA.lat));
  });

  it('after Back, actions apply to the URL Back showed', async () => {
    const router = renderAt('/marketplace?location=10011');
    await act(async () => {
      handles.dispatch!({ type: 'locate', origin: CHELSEA, address: '10011' }, { replace: true });
    });
    await act(async () => {
      handles.dispatch!({ type: 'search', origin: DENVER, address: '80211, Denver, CO' });
    });
    await act(async () => {
      await router.navigate(-1);
    });
    await act(async () => {
      handles.dispatch!({ type: 'page', page: 2 });
    });
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('location')).toBe('10011');
    expect(params.get('page')).toBe('2');
  });
});
