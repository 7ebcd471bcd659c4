import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { hardNavigation } from '@/lib/hard-navigation';
import { mockFetch, renderRoutes, signIn } from '@/test/render';
import { lastActiveText, SessionsCard } from './sessions-card';

afterEach(() => vi.restoreAllMocks());

const NOW = new Date().toISOString();
const YESTERDAY = new Date(Date.now() - 24 * 3600 * 1000).toISOString();

function sessionList(ids: number[]) {
  return {
    sessions: ids.map((id, index) => ({
      id,
      current: index === 0,
      device: index === 0 ? 'Chrome on macOS' : 'Safari on iPhone',
      network: index === 0 ? '203.0.113.0/24' : '198.51.100.0/24',
      createdAt: YESTERDAY,
      lastActiveAt: index === 0 ? NOW : YESTERDAY,
      expiresAt: NOW,
    })),
    idleLimit: '12 hours',
    absoluteLimit: '30 days',
  };
}

function renderCard(ids: number[]) {
  signIn();
  let listed = ids;
  const fetched = mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/member/app/sessions') return { body: sessionList(listed) };
    if (method === 'DELETE' && url.pathname.startsWith('/member/app/sessions/')) {
      listed = listed.filter((id) => `/member/app/sessions/${id}` !== url.pathname);
      return { body: { message: 'That session is signed out.' } };
    }
    if (method === 'DELETE' && url.pathname === '/member/app/sessions') {
      listed = listed.slice(0, 1);
      return { body: { message: 'Every other session is signed out.' } };
    }
    if (method === 'POST' && url.pathname === '/member/app/logout') return { body: { message: 'You are signed out.' } };
    return undefined;
  });
  renderRoutes({ '/': <SessionsCard /> }, '/');
  return fetched;
}

describe("Settings' Where you're signed in", () => {
  it('lists each session with its device, network and last activity, this one marked', async () => {
    renderCard([11, 22]);
    const rows = await screen.findAllByTestId('session-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('This device')).toBeTruthy();
    expect(within(rows[0]!).getByText('Active now')).toBeTruthy();
    expect(within(rows[1]!).getByText('Safari on iPhone')).toBeTruthy();
    expect(within(rows[1]!).getByText('198.51.100.0/24')).toBeTruthy();
    expect(within(rows[1]!).getByText(/^Last active /)).toBeTruthy();
    expect(screen.getByText('A session ends after 12 hours without activity, and 30 days after signing in.')).toBeTruthy();
  });

  it('ends another session on the server and lists what is left', async () => {
    const { calls } = renderCard([11, 22]);
    const rows = await screen.findAllByTestId('session-row');
    fireEvent.click(within(rows[1]!).getByRole('button', { name: /^Sign out Safari on iPhone/ }));
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/member/app/sessions/22')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Sign out of all other devices' })).toBeNull();
  });

  it('signs out of all other devices', async () => {
    const { calls } = renderCard([11, 22, 33]);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }));
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(calls.some((call) => call.init?.method === 'DELETE' && call.url.pathname === '/member/app/sessions')).toBe(true);
  });

  it("signs this device out through the server's logout", async () => {
    const assign = vi.spyOn(hardNavigation, 'assign').mockImplementation(() => {});
    const { calls } = renderCard([11, 22]);
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out of this device' }));
    expect(calls.some((call) => call.init?.method === 'POST' && call.url.pathname === '/member/app/logout')).toBe(true);
    expect(assign).toHaveBeenCalledWith('/login');
  });

  it('says "Active now" for the last two minutes, else when', () => {
    const now = Date.parse('2026-11-26T15:00:00Z');
    expect(lastActiveText('2026-11-26T14:59:00Z', now)).toBe('Active now');
    expect(lastActiveText('2026-11-26T10:00:00Z', now)).toMatch(/^Last active Nov 26, 2026/);
  });
});
