import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { Member } from '@/lib/member';
import { memberFixture } from '@/test/fixtures';
import { bodyOf, mockFetch, renderRoutes, signIn } from '@/test/render';
import { AccountSettingsPage } from './account-pages';

type Answer = { status?: number; body: unknown };

function renderSettings(member: Member, route = '/account/settings', extra: Record<string, Answer> = {}) {
  signIn();
  const fetched = mockFetch((url, init) => {
    if (url.pathname === '/member/app/member/info') return { body: member };
    return extra[`${init?.method ?? 'GET'} ${url.pathname}`];
  });
  const rendered = renderRoutes(
    {
      '/account/settings': <AccountSettingsPage />,
      '/account/settings/change-password': <AccountSettingsPage form="password" />,
    },
    route,
  );
  return { ...fetched, ...rendered };
}

describe('mobile Settings (/account/settings)', () => {
  it('changes the email with Send Verification, for real', async () => {
    const { calls } = renderSettings(memberFixture(), '/account/settings', {
      'POST /member/app/validate/email': { body: { valid: true } },
      'POST /member/app/change/email': { body: { message: 'Verification link sent to email jane.new@acme.example' } },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change email' }));
    fireEvent.change(screen.getByLabelText('New email'), { target: { value: 'Jane.New@Acme.example' } });
    expect(screen.queryByRole('button', { name: 'Send verification link' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send Verification' }));
    expect(await screen.findByRole('dialog', { name: 'Check your E-mail' })).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/change/email')!)).toEqual({ email: 'jane.new@acme.example' });
  });

  it('opens the change password form on /account/settings/change-password, which saves', async () => {
    const { calls } = renderSettings(memberFixture(), '/account/settings/change-password', {
      'POST /member/app/password/change': { body: { message: 'Password changed', msg: 'Password changed' } },
    });
    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old-pass-123' } });
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'New-pass-123' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'New-pass-123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password saved successfully! Please continue to login.')).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/password/change')!)).toEqual({ password: 'New-pass-123', currentPassword: 'Old-pass-123' });
  });

  it('shows no notification toggle: no call could save one', async () => {
    renderSettings(memberFixture());
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
  });
});
