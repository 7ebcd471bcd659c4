import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getAccessToken, signedOutMessage } from '@/lib/session';
import { bodyOf, mockFetch, renderRoutes } from '@/test/render';
import { AuthChangePasswordPage } from './auth-change-password-page';
import { ForgotPasswordPage } from './forgot-password-page';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';
import { ResetPasswordPage } from './reset-password-page';

const loginRoutes = {
  '/login': <LoginPage />,
  '/home': <p>home page</p>,
  '/confirm-plan-information': <p>eligibility page</p>,
  '/marketplace': <p>marketplace page</p>,
};

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('login', () => {
  it('asks for the email first, then the password, and follows nextStep', async () => {
    const { calls } = mockFetch((url) =>
      url.pathname === '/member/app/login' ? { body: { accessToken: 'a.b.c', nextStep: 'confirmPlan', filterMarket: null } } : undefined,
    );
    const { router } = renderRoutes(loginRoutes, '/login');
    expect(screen.queryByLabelText('Password')).toBeNull();
    type('Email', ' Jane.Doe@ACME.example ');
    fireEvent.blur(screen.getByLabelText('Email'));
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('jane.doe@acme.example');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('link', { name: 'Forgot password' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send me a one-time login link' })).toBeTruthy();
    type('Password', 'Secret-pass1');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm-plan-information'));
    expect(bodyOf(calls[0]!)).toEqual({ email: 'jane.doe@acme.example', password: 'Secret-pass1' });
    expect(getAccessToken()).toBe('a.b.c');
  });

  it('sends selectDPC members to the marketplace filtered by company and location', async () => {
    mockFetch((url) =>
      url.pathname === '/member/app/login' ? { body: { accessToken: 'a.b.c', nextStep: 'selectDPC', filterMarket: { company: 'acme', location: 'Denver, CO' } } } : undefined,
    );
    const { router } = renderRoutes(loginRoutes, '/login?email=jane@acme.example');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Password', 'Secret-pass1');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/marketplace'));
    expect(router.state.location.search).toBe('?company=acme&location=Denver%2C+CO');
  });

  it('keeps why the session ended while the login page shows, for the full load that follows, and forgets it once left', async () => {
    mockFetch(() => undefined);
    const reason = 'This session was signed out from another device. Please log in again.';
    window.sessionStorage.setItem('signedOutMessage', reason);
    const { router } = renderRoutes(loginRoutes, '/login');
    expect(screen.getByText(reason)).toBeTruthy();
    // The session's end also loads /login afresh: that page must find the reason too.
    expect(signedOutMessage()).toBe(reason);
    await router.navigate('/marketplace');
    await waitFor(() => expect(screen.getByText('marketplace page')).toBeTruthy());
    expect(signedOutMessage()).toBeNull();
  });

  it('sends providers and TPAs to their portal on this site, not to another domain', () => {
    mockFetch(() => undefined);
    renderRoutes(loginRoutes, '/login');
    const portal = screen.getByRole('link', { name: 'provider portal' });
    expect(portal.getAttribute('href')).toBe('/dpc-providers/solutions');
    expect(portal.closest('p')!.textContent).toBe('Provider or TPA? Sign in here with the email your invitation was sent to, then go to the provider portal.');
    expect(screen.queryByRole('link', { name: 'Go to the provider site' })).toBeNull();
  });

  it('shows the server text for a wrong password', async () => {
    mockFetch((url) => (url.pathname === '/member/app/login' ? { status: 401, body: { message: 'Invalid email and / or password', code: 'invalid_credentials' } } : undefined));
    renderRoutes(loginRoutes, '/login?email=jane@acme.example');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    type('Password', 'wrong');
    fireEvent.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Invalid email and / or password')).toBeTruthy();
    expect(getAccessToken()).toBeNull();
  });

  it('logs in with a one-time link from the address', async () => {
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/login/magic/link' ? { body: { accessToken: 'm.a.g', nextStep: 'complete' } } : undefined));
    const { router } = renderRoutes(loginRoutes, '/login?magicLink=T0k3n&email=jane%40acme.example');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(bodyOf(calls[0]!)).toEqual({ token: 'T0k3n', email: 'jane@acme.example' });
    expect(getAccessToken()).toBe('m.a.g');
  });

  it('shows the expired-link modal when the one-time link is refused', async () => {
    mockFetch((url) => (url.pathname === '/member/app/login/magic/link' ? { status: 403, body: { message: 'Your magic link has expired', code: 'link_expired' } } : undefined));
    renderRoutes(loginRoutes, '/login?magicLink=old&email=jane%40acme.example');
    const dialog = await screen.findByRole('dialog', { name: 'Your magic link has expired' });
    expect(within(dialog).getByRole('button', { name: 'Send me a new link' })).toBeTruthy();
  });

  it('sends a one-time link and says so', async () => {
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/request/magic/link' ? { body: { message: 'sent' } } : undefined));
    renderRoutes(loginRoutes, '/login?email=jane@acme.example');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send me a one-time login link' }));
    expect(await screen.findByRole('dialog', { name: 'Check your Email' })).toBeTruthy();
    expect(bodyOf(calls[0]!)).toEqual({ email: 'jane@acme.example' });
  });
});

describe('reset password', () => {
  const routes = { '/auth/reset-password': <ResetPasswordPage />, '/expired': <p>expired page</p>, '/login': <p>login page</p> };

  it('validates the token, ticks the checklist live and saves with the fresh token', async () => {
    const { calls } = mockFetch((url) => {
      if (url.pathname === '/member/app/validate/token') return { body: { newToken: 'fresh', password: false } };
      if (url.pathname === '/member/app/password/reset') return { body: { message: 'ok' } };
      return undefined;
    });
    renderRoutes(routes, '/auth/reset-password?token=link');
    const field = await screen.findByLabelText('New Password');
    const submit = screen.getByRole('button', { name: 'Set password' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'abc' } });
    const list = screen.getByRole('list', { name: 'Password requirements' });
    expect(within(list).getAllByRole('listitem').map((item) => item.getAttribute('data-met'))).toEqual(['false', 'false', 'true', 'false']);
    fireEvent.blur(field);
    expect(screen.getByText('Password does not meet the security requirements')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'Abcdefgh!' } });
    expect(within(list).getAllByRole('listitem').every((item) => item.getAttribute('data-met') === 'true')).toBe(true);
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'Abcdefgh?' } });
    fireEvent.blur(screen.getByLabelText('Confirm New Password'));
    expect(screen.getByText('Password must match')).toBeTruthy();
    expect(submit.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Confirm New Password'), { target: { value: 'Abcdefgh!' } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    expect(await screen.findByText('Password saved successfully! Please continue to login.')).toBeTruthy();
    expect(bodyOf(calls[1]!)).toEqual({ password: 'Abcdefgh!', token: 'fresh' });
  });

  it('toggles the password visibility', async () => {
    mockFetch((url) => (url.pathname === '/member/app/validate/token' ? { body: { newToken: 'fresh', password: true } } : undefined));
    renderRoutes(routes, '/auth/reset-password?token=link');
    const field = (await screen.findByLabelText('New Password')) as HTMLInputElement;
    expect(field.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(field.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Reset password' })).toBeTruthy();
  });

  it('goes to /expired when the link is refused with 401', async () => {
    mockFetch((url) => (url.pathname === '/member/app/validate/token' ? { status: 401, body: { message: 'Oops, it seems your link has expired.', code: 'link_expired' } } : undefined));
    const { router } = renderRoutes(routes, '/auth/reset-password?token=used');
    await waitFor(() => expect(router.state.location.pathname).toBe('/expired'));
  });
});

describe('forgot password and expired link', () => {
  it('sends the reset link and shows the check-your-email modal', async () => {
    const { calls } = mockFetch((url) => (url.pathname === '/member/app/request/password/reset' ? { body: {} } : undefined));
    renderRoutes({ '/forgot-password': <ForgotPasswordPage /> }, '/forgot-password');
    fireEvent.click(screen.getByRole('button', { name: 'Send password reset link' }));
    expect(await screen.findByText('E-mail is required')).toBeTruthy();
    type('Company E-mail', 'Jane@Acme.example');
    fireEvent.click(screen.getByRole('button', { name: 'Send password reset link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Check your Email' });
    expect(within(dialog).getByText('If there is an account associated to this e-mail, you will receive a link.')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Back to Login' })).toBeTruthy();
    expect(bodyOf(calls[0]!)).toEqual({ email: 'jane@acme.example' });
  });

  it('titles the expired page and offers a new link and registration', () => {
    mockFetch(() => undefined);
    renderRoutes({ '/expired': <ForgotPasswordPage variant="expired" /> }, '/expired');
    expect(screen.getByRole('heading', { name: 'Your link has expired' })).toBeTruthy();
    expect(screen.getByText("Confirm your email address and we'll send you a link")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send new link' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Register' })).toBeTruthy();
  });

  it("offers a provider's expired link (account=provider) no member registration", () => {
    mockFetch(() => undefined);
    renderRoutes({ '/expired': <ForgotPasswordPage variant="expired" /> }, '/expired?account=provider');
    expect(screen.getByRole('heading', { name: 'Your link has expired' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send new link' })).toBeTruthy();
    expect(screen.queryByText(/No account yet/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Register' })).toBeNull();
  });

  it("sends an expired provider link to /expired?account=provider", async () => {
    mockFetch((url) => (url.pathname.includes('token') || url.pathname.includes('validate') ? { status: 401, body: { message: 'expired', code: 'unauthorized' } } : undefined));
    const { router } = renderRoutes({ '/auth/reset-password': <ResetPasswordPage />, '/expired': <p>expired page</p> }, '/auth/reset-password?token=abc&account=provider');
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/expired?account=provider'));
  });

  it("says 'This email is not reachable or does not exist' when the request fails", async () => {
    mockFetch((url) => (url.pathname === '/member/app/request/password/reset' ? { status: 500, body: { message: 'boom', code: 'internal' } } : undefined));
    renderRoutes({ '/forgot-password': <ForgotPasswordPage /> }, '/forgot-password?email=jane@acme.example');
    fireEvent.click(screen.getByRole('button', { name: 'Send password reset link' }));
    expect(await screen.findByText('This email is not reachable or does not exist')).toBeTruthy();
  });
});

describe('change password (auth)', () => {
  it("shows 'Passwords do not match.' on blur and keeps Change Password disabled", () => {
    mockFetch(() => undefined);
    renderRoutes({ '/auth/change-password': <AuthChangePasswordPage /> }, '/auth/change-password');
    type('New password', 'Abcdef1!');
    type('Confirm new password', 'Abcdef1?');
    expect(screen.queryByText('Passwords do not match.')).toBeNull();
    fireEvent.blur(screen.getByLabelText('Confirm new password'));
    expect(screen.getByText('Passwords do not match.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Change Password' }) as HTMLButtonElement).disabled).toBe(true);
    type('Confirm new password', 'Abcdef1!');
    expect((screen.getByRole('button', { name: 'Change Password' }) as HTMLButtonElement).disabled).toBe(false);
  });
});

describe('register', () => {
  const employers = [
    { id: 1, companyName: 'Acme Corporation', status: 'active' },
    { id: 3, companyName: 'Globex Industries', status: 'inactive' },
  ];

  function employerApi(extra: (url: URL) => { status?: number; body: unknown } | undefined = () => undefined) {
    return mockFetch((url) => {
      if (url.pathname === '/member/app/potential/employers') {
        const search = (url.searchParams.get('search') ?? '').toLowerCase();
        return { body: employers.filter((employer) => employer.companyName.toLowerCase().startsWith(search)) };
      }
      return extra(url);
    });
  }

  async function choose(name: string) {
    fireEvent.click(screen.getByRole('button', { name: /Select your employer/ }));
    fireEvent.change(screen.getByPlaceholderText('Search employer here'), { target: { value: name.slice(0, 4) } });
    fireEvent.click(await screen.findByRole('option', { name: new RegExp(`^${name}`) }));
  }

  it('clears local storage on entry but keeps the marketplace choices in memory', () => {
    employerApi();
    window.localStorage.setItem('employer', JSON.stringify(employers[0]));
    window.localStorage.setItem('other', '1');
    renderRoutes({ '/register': <RegisterPage /> }, '/register');
    expect(window.localStorage.getItem('other')).toBeNull();
    expect(screen.getByRole('button', { name: /Acme Corporation/ })).toBeTruthy();
  });

  it('offers Notify Me when the employer does not offer the benefit', async () => {
    const { calls } = employerApi((url) => (url.pathname === '/member/app/signup' ? { body: { id: 9 } } : undefined));
    renderRoutes({ '/register': <RegisterPage /> }, '/register');
    await choose('Globex Industries');
    type('Company E-mail', 'sam@globex.example');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('dialog', { name: 'Oops, your employer does not offer this benefit yet' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Notify Me' }));
    const waitlist = await screen.findByRole('dialog', { name: 'Notify Me' });
    const notify = within(waitlist).getByRole('button', { name: 'Notify Me' }) as HTMLButtonElement;
    expect(notify.disabled).toBe(true);
    fireEvent.click(within(waitlist).getByLabelText('I agree to be contacted by the provider'));
    await waitFor(() => expect(notify.disabled).toBe(false), { timeout: 2000 });
    fireEvent.click(notify);
    expect(await screen.findByRole('dialog', { name: "You're on the list" })).toBeTruthy();
    const signup = calls.find((call) => call.url.pathname === '/member/app/signup')!;
    expect(bodyOf(signup)).toMatchObject({ email: 'sam@globex.example', employerId: 3, notify: true });
  });

  it('sends an already registered email to login', async () => {
    employerApi((url) => (url.pathname === '/member/app/validate/email' ? { body: { valid: false, reason: 'email', message: 'This e-mail is already registered.' } } : undefined));
    const { router } = renderRoutes({ '/register': <RegisterPage />, '/login': <p>login page</p> }, '/register');
    await choose('Acme Corporation');
    type('Company E-mail', 'jane@acme.example');
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?email=jane%40acme.example');
  });

  it('signs up with an active employer and congratulates', async () => {
    const { calls } = employerApi((url) => {
      if (url.pathname === '/member/app/validate/email') return { body: { valid: true } };
      if (url.pathname === '/member/app/signup') return { body: { id: 9, accessToken: 'new.access.token', accountExists: false } };
      return undefined;
    });
    window.localStorage.setItem('selectedProvider', JSON.stringify({ providerId: 1, locationId: 1, name: 'Front Range' }));
    const { router } = renderRoutes({ '/register': <RegisterPage />, '/confirm-plan-information': <p>eligibility</p> }, '/register');
    await choose('Acme Corporation');
    const submit = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    type('Company E-mail', 'jane@acme.example');
    fireEvent.click(screen.getByRole('checkbox'));
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    const dialog = await screen.findByRole('dialog', { name: 'Congratulations!' });
    const signup = calls.find((call) => call.url.pathname === '/member/app/signup')!;
    expect(signup.url.search).toBe('?company=1&location=1');
    expect(bodyOf(signup)).toMatchObject({ email: 'jane@acme.example', employerId: 1 });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm-plan-information'));
    expect(getAccessToken()).toBe('new.access.token');
  });
});
