import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { useMemberState } from '@/lib/member-state';
import { getAccessToken } from '@/lib/session';
import { memberFixture } from '@/test/fixtures';
import { mockFetch, signIn } from '@/test/render';
import { AppProvider } from './provider';

function Probe() {
  const state = useMemberState();
  return <p>{state ? `${state.nextStep} ${state.subscriptionStatus} ${state.locationId}` : 'no member'}</p>;
}

describe('member state', () => {
  it('comes from the member info while a token cookie exists', async () => {
    signIn();
    mockFetch((url) => (url.pathname === '/member/app/member/info' ? { body: memberFixture({ nextStep: 'confirmPlan', locationId: 3 }) } : undefined));
    render(
      <AppProvider>
        <Probe />
      </AppProvider>,
    );
    expect(await screen.findByText('confirmPlan pending 3')).toBeTruthy();
  });

  it('is null when signed out, without calling the server', () => {
    const { calls } = mockFetch(() => undefined);
    render(
      <AppProvider>
        <Probe />
      </AppProvider>,
    );
    expect(screen.getByText('no member')).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('drops a token the server refuses', async () => {
    signIn();
    mockFetch((url) => (url.pathname === '/member/app/member/info' ? { status: 401, body: { message: 'Please log in to continue', code: 'unauthorized' } } : undefined));
    render(
      <AppProvider>
        <Probe />
      </AppProvider>,
    );
    await waitFor(() => expect(getAccessToken()).toBeNull());
  });
});
