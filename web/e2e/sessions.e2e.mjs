// Browser tests of issue 24: sessions a member controls. Two browsers sign in to one account;
// Settings' "Where you're signed in" lists both, and ending the other one from there sends that
// browser to the login page with the reason at its next step. The member is made through the API
// (sign-up, the emailed verification link, a password), so the test needs the SMTP sink's folder.
// A provider account sees and ends its sessions the same way, from the portal's Settings (it is
// invited with the indexer CLI, so that test also needs the e2e server's database).
import { api, assert, BASE_URL, DESKTOP, indexer, launchBrowser, logIn, MOBILE, newPage, outboxLink, screenshot, sql, test } from './harness.mjs';

const PASSWORD = 'Nearcare-e2e-sessions-1';
const ENDED_ELSEWHERE = 'This session was signed out from another device. Please log in again.';

/** An Acme subscriber with a password, made as a person would: sign up, open the emailed link, choose the password. */
async function memberWithPassword() {
  const email = `e2e-sessions-${Date.now()}-${Math.floor(Math.random() * 1e6)}@acme.example`;
  await api('/member/app/signup', { method: 'POST', body: { email, employerId: 1, companyName: 'Acme Corporation', firstName: 'Sam', lastName: 'Session', terms_and_conditions: true } });
  await choosePassword(email);
  return email;
}

/** Sets the password an emailed link (verification or invitation) lets its owner choose. */
async function choosePassword(email) {
  const link = new URL(await outboxLink(email));
  const { newToken } = await api('/member/app/validate/token', { method: 'POST', body: { token: link.searchParams.get('token') } });
  await api('/member/app/password/reset', { method: 'POST', body: { token: newToken, password: PASSWORD } });
}

/** Logs in and waits to leave the login page (a member without a clinic yet lands on the marketplace). */
async function signIn(page, email) {
  await logIn(page, email, PASSWORD);
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15_000 });
}

/** The sessions Settings lists, as [device, current] pairs, once `count` rows are shown. */
async function sessionRows(page, count) {
  const rows = page.getByTestId('session-row');
  await page.waitForFunction((expected) => document.querySelectorAll('[data-testid="session-row"]').length === expected, count, { timeout: 10_000 });
  return rows;
}

/** A signed-in page that makes its next call: it must land on the login page with the reason. */
async function assertSentToLogin(page, label, from = '/account/details') {
  await page.goto(`${BASE_URL}${from}`);
  await page.waitForURL(/\/login$/, { timeout: 10_000 });
  const notice = page.getByText(ENDED_ELSEWHERE);
  await notice.waitFor();
  const cookies = await page.context().cookies();
  assert(!cookies.some((cookie) => cookie.name === 'token' && cookie.value), `${label}: the ended session's cookie is cleared`);
  await screenshot(page, `sessions-${label}-ended-login`);
}

test('sessions: two browsers sign in, one ends the other from Settings, and the other is sent to login with the reason', async () => {
  const email = await memberWithPassword();
  const browser = await launchBrowser();
  try {
    const desk = await newPage(browser, DESKTOP);
    const phone = await newPage(browser, MOBILE);
    await signIn(desk.page, email);
    await signIn(phone.page, email);

    // The desktop's Settings panel: both sessions, this one marked and first.
    await desk.page.goto(`${BASE_URL}/account/details?panel=settings`);
    await desk.page.getByRole('heading', { name: "Where you're signed in" }).waitFor();
    const deskRows = await sessionRows(desk.page, 2);
    assert((await deskRows.first().getAttribute('data-current')) === 'true', 'the current session is listed first');
    assert((await deskRows.first().getByText('This device').count()) === 1, 'the current session is marked');
    const other = deskRows.nth(1);
    const otherText = await other.innerText();
    assert(/Chrome on Linux/.test(otherText) && /127\.0\.0\.0\/24/.test(otherText), `device and network shown, got ${otherText}`);
    assert(!/127\.0\.0\.1/.test(await deskRows.first().innerText()), 'the address itself is never shown');
    await desk.page.getByText(/A session ends after 12 hours without activity, and 30 days after signing in\./).waitFor();
    await screenshot(desk.page, 'sessions-desktop-01-settings');

    // The phone's Settings screen lists the same two.
    await phone.page.goto(`${BASE_URL}/account/settings`);
    await phone.page.getByRole('heading', { name: "Where you're signed in" }).waitFor();
    await sessionRows(phone.page, 2);
    await phone.page.getByRole('heading', { name: "Where you're signed in" }).scrollIntoViewIfNeeded();
    await screenshot(phone.page, 'sessions-mobile-01-settings');

    // The desktop signs the phone out; its list keeps only itself.
    await other.getByRole('button', { name: /^Sign out Chrome on Linux/ }).click();
    await sessionRows(desk.page, 1);
    assert((await desk.page.getByRole('button', { name: 'Sign out of all other devices' }).count()) === 0, 'no other device left to sign out');
    await screenshot(desk.page, 'sessions-desktop-02-other-ended');

    // The phone's next step finds its session ended: the login page, with why.
    await assertSentToLogin(phone.page, 'mobile');

    // The desktop keeps working.
    await desk.page.goto(`${BASE_URL}/account/details`);
    await desk.page.getByRole('heading', { name: 'My Account' }).waitFor();

    // The other way round, with "Sign out of all other devices": the phone signs in again and
    // ends the desktop's session; the desktop is sent to login.
    await signIn(phone.page, email);
    await phone.page.goto(`${BASE_URL}/account/settings`);
    await sessionRows(phone.page, 2);
    await phone.page.getByRole('button', { name: 'Sign out of all other devices' }).click();
    await sessionRows(phone.page, 1);
    await screenshot(phone.page, 'sessions-mobile-02-others-ended');
    await assertSentToLogin(desk.page, 'desktop');

    // Sign Out on the phone ends its session on the server too: a copy of its token is refused.
    const phoneToken = (await phone.context.cookies()).find((cookie) => cookie.name === 'token')?.value;
    assert(phoneToken, 'the phone holds a token');
    await phone.page.getByRole('button', { name: 'Sign out of this device' }).click();
    await phone.page.waitForURL(/\/login/);
    let refused = null;
    for (let attempt = 0; attempt < 20 && refused === null; attempt += 1) {
      const answer = await fetch(`${BASE_URL}/member/app/member/info`, { headers: { 'x-access-token': decodeURIComponent(phoneToken) } });
      if (answer.status === 401) refused = await answer.json();
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert(refused?.code === 'session_ended' && refused?.reason === 'signed_out', `the signed-out token is refused, got ${JSON.stringify(refused)}`);
  } finally {
    await browser.close();
  }
});

test("sessions: a provider sees where the account is signed in from the portal's Settings and ends the other devices", async () => {
  const organisation = Number(sql('select id from organisations order by id desc limit 1'));
  const email = `e2e-provider-sessions-${Date.now()}@dpc.example`;
  indexer('providers', 'invite', '--organisation', String(organisation), '--email', email, '--first-name', 'Pat', '--last-name', 'Sessions');
  await choosePassword(email);
  const browser = await launchBrowser();
  try {
    const desk = await newPage(browser, DESKTOP);
    const phone = await newPage(browser, MOBILE);
    await signIn(desk.page, email);
    await desk.page.waitForURL(/\/dpc-providers\//);
    await signIn(phone.page, email);

    // The side bar's Settings: both sessions, this one marked.
    await desk.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await desk.page.waitForURL(/\/dpc-providers\/settings$/);
    await desk.page.getByRole('heading', { name: "Where you're signed in" }).waitFor();
    const deskRows = await sessionRows(desk.page, 2);
    assert((await deskRows.first().getAttribute('data-current')) === 'true', 'the current session is listed first');
    assert(/Chrome on Linux/.test(await deskRows.nth(1).innerText()), 'the other device is named');
    await screenshot(desk.page, 'sessions-provider-desktop-01-settings');

    // The phone reaches the same page from the drawer.
    await phone.page.getByRole('button', { name: 'Open menu' }).click();
    await phone.page.getByRole('link', { name: 'Settings' }).click();
    await phone.page.waitForURL(/\/dpc-providers\/settings$/);
    await sessionRows(phone.page, 2);
    await screenshot(phone.page, 'sessions-provider-mobile-01-settings');

    // "Sign out of all other devices" on the phone: the desktop's next step is the login page.
    await phone.page.getByRole('button', { name: 'Sign out of all other devices' }).click();
    await sessionRows(phone.page, 1);
    await screenshot(phone.page, 'sessions-provider-mobile-02-others-ended');
    await assertSentToLogin(desk.page, 'provider-desktop', '/dpc-providers/members');

    // The desktop signs in again and ends the phone's session from its row.
    await signIn(desk.page, email);
    await desk.page.goto(`${BASE_URL}/dpc-providers/settings`);
    const again = await sessionRows(desk.page, 2);
    await again.nth(1).getByRole('button', { name: /^Sign out / }).click();
    await sessionRows(desk.page, 1);
    await screenshot(desk.page, 'sessions-provider-desktop-02-other-ended');
    await assertSentToLogin(phone.page, 'provider-mobile', '/dpc-providers/settings');
  } finally {
    await browser.close();
  }
});
