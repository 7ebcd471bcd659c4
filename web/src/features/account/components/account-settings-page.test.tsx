import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
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
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'Old-pass-123' } });
    expect(screen.queryByRole('button', { name: 'Send verification link' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send Verification' }));
    expect(await screen.findByRole('dialog', { name: 'Check your E-mail' })).toBeTruthy();
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/change/email')!)).toEqual({ email: 'jane.new@acme.example', currentPassword: 'Old-pass-123' });
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

  it('shows the email notifications switch from member info and saves a change through the server', async () => {
    const { calls } = renderSettings(memberFixture({ notify: false }), '/account/settings', {
      'PUT /member/app/notifications': { body: { notify: true } },
    });
    const toggle = await screen.findByRole('switch', { name: 'Email notifications' });
    expect((toggle as HTMLInputElement).checked).toBe(false);
    fireEvent.click(toggle);
    // Nothing moves until the server has accepted the change.
    expect((toggle as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Email notifications' }) as HTMLInputElement).checked).toBe(true));
    const saves = calls.filter((call) => call.url.pathname === '/member/app/notifications');
    expect(saves).toHaveLength(1);
    expect(saves[0].init?.method).toBe('PUT');
    expect(bodyOf(saves[0])).toEqual({ notify: true });
    // The other settings stay on the screen.
    expect(screen.getByRole('button', { name: 'Change email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Change password' })).toBeTruthy();
  });

  it('turns notifications off for a member who asked to be kept posted', async () => {
    const { calls } = renderSettings(memberFixture({ notify: true }), '/account/settings', {
      'PUT /member/app/notifications': { body: { notify: false } },
    });
    const toggle = (await screen.findByRole('switch', { name: 'Email notifications' })) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Email notifications' }) as HTMLInputElement).checked).toBe(false));
    expect(bodyOf(calls.find((call) => call.url.pathname === '/member/app/notifications')!)).toEqual({ notify: false });
  });

  it('leaves the switch as it was and shows the server message when the save is refused', async () => {
    renderSettings(memberFixture({ notify: false }), '/account/settings', {
      'PUT /member/app/notifications': { status: 400, body: { message: 'notify: invalid type: expected a boolean', code: 'invalid_body' } },
    });
    const toggle = await screen.findByRole('switch', { name: 'Email notifications' });
    fireEvent.click(toggle);
    expect((await screen.findByRole('alert')).textContent).toBe('notify: invalid type: expected a boolean');
    expect((screen.getByRole('switch', { name: 'Email notifications' }) as HTMLInputElement).checked).toBe(false);
  });
});
