// Browser tests of accounts, onboarding and membership against the real server (NEARCARE_URL).
// One-time links are read from the server's email outbox through psql on E2E_DATABASE_URL (the
// test command exports the e2e server's database); without it, the tests that need it fail.
import { assert, BASE_URL, DESKTOP, launchBrowser, logIn, MOBILE, newPage, outboxLink, local, quote, requireDatabase, screenshot, skip, sql, test } from './harness.mjs';


/** The demo roster member (crates/seed/src/demo.rs): Jane Doe of Acme Corporation. */
const JANE = { firstName: 'Jane', lastName: 'Doe', dob: '04121985', memberId: '123-456789', employer: 'Acme Corporation', phone: '3035550100' };
const FIRST_PASSWORD = 'Nearcare-e2e-1';
const NEW_PASSWORD = 'Nearcare-e2e-2';

/** The account the first test creates; the later tests sign in with it. */
const account = { email: `e2e-${Date.now()}@acme.example`, password: FIRST_PASSWORD, ready: false, usedLink: null };

async function setPasswordFromLink(page, link, password) {
  await page.goto(local(link));
  await page.getByLabel('New Password', { exact: true }).waitFor();
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(password);
  const checklist = page.getByRole('list', { name: 'Password requirements' });
  assert((await checklist.locator('[data-met="true"]').count()) === 4, 'every requirement ticked');
}

test('accounts: register, set the password from the email, log in, confirm eligibility, Home and the membership card', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    // A provider chosen before sign-up: the Denver clinic (organisation 1, location 1).
    await page.goto(`${BASE_URL}/marketplace/provider/details/1?location=1`);
    await page.getByRole('button', { name: 'Select provider' }).click();
    // No employer chosen yet: the employer prompt comes first, and registration carries it over.
    const prompt = page.getByRole('dialog', { name: 'Who is your employer?' });
    await prompt.getByRole('button', { name: /Select your employer/ }).click();
    await prompt.getByPlaceholder('Search employer here').fill('Acme');
    await prompt.getByRole('option', { name: /^Acme Corporation/ }).click();
    // Acme offers the benefit: 'Perfect! ... Find My Provider' carries on with the selection.
    const verified = page.getByRole('dialog', { name: 'Perfect!' });
    await verified.getByText('Acme Corporation is participating and will pay up to 100% of the benefit.').waitFor();
    await screenshot(page, 'accounts-desktop-00-employer-verified');
    await verified.getByRole('button', { name: 'Find My Provider' }).click();
    await page.waitForURL(/\/register$/);
    await page.waitForFunction(() => document.title === 'Member - MemberRegister');
    await page.getByRole('button', { name: /Acme Corporation/ }).waitFor();
    await page.getByLabel('Company E-mail').fill(account.email);
    await page.getByRole('checkbox').check();
    await screenshot(page, 'accounts-desktop-01-register');
    await page.getByRole('button', { name: 'Continue' }).click();
    const congratulations = page.getByRole('dialog', { name: 'Congratulations!' });
    await congratulations.waitFor();
    await screenshot(page, 'accounts-desktop-02-registered');

    const verification = await outboxLink(account.email);
    assert(verification.includes('/auth/reset-password?token='), `verification link, got ${verification}`);
    await setPasswordFromLink(page, verification, FIRST_PASSWORD);
    await screenshot(page, 'accounts-desktop-03-set-password');
    await page.getByRole('button', { name: /Set password|Reset password/ }).click();
    await page.getByText('Password saved successfully! Please continue to login.').waitFor();
    await page.getByRole('button', { name: 'Continue to Login' }).click();
    await page.waitForURL(/\/login/);

    await logIn(page, account.email, FIRST_PASSWORD);
    await page.waitForURL(/\/confirm-plan-information/);
    await page.getByRole('heading', { name: 'Verify your eligibility' }).waitFor();
    await page.getByText('Front Range Direct Primary Care').first().waitFor();
    await page.getByLabel('First name').fill(JANE.firstName);
    await page.getByLabel('Last name').fill(JANE.lastName);
    await page.getByLabel('Date of birth').pressSequentially(JANE.dob);
    assert((await page.getByLabel('Date of birth').inputValue()) === '04/12/1985', 'date mask');
    await page.getByLabel('Gender').selectOption('f');
    await page.getByLabel('Mobile phone').pressSequentially(JANE.phone);
    assert((await page.getByLabel('Mobile phone').inputValue()) === '303 555 0100', 'phone mask');
    await page.getByLabel('Member ID').fill(JANE.memberId);
    assert((await page.getByLabel('Payer ID').count()) === 0, 'a sole payer hides the payer field');
    const plan = await page.getByLabel('Health plan').inputValue();
    assert(plan !== '', 'the sole plan is preselected');
    await screenshot(page, 'accounts-desktop-04-eligibility-form');
    await page.getByRole('button', { name: 'Confirm Eligibility' }).click();

    const exists = page.getByRole('dialog', { name: 'Oops, it seems an account already exists with this information.' });
    const addFamily = page.getByRole('dialog', { name: 'Eligibility confirmed!' });
    const enrolled = page.getByRole('dialog', { name: /You're enrolled with/ });
    await Promise.race([exists.waitFor(), addFamily.waitFor(), enrolled.waitFor()]);
    if (await exists.isVisible()) throw new Error('Jane Doe is already enrolled on this database: run the accounts tests on a fresh one');
    await screenshot(page, 'accounts-desktop-05-eligibility-confirmed');
    if (await addFamily.isVisible()) await addFamily.getByRole('button', { name: "No I'm all set" }).click();
    else await enrolled.getByRole('button', { name: /Okay|Connect me now/ }).click();
    await page.waitForURL(/\/membership/);
    await page.getByTestId('membership-card').first().waitFor();
    const card = await page.getByTestId('membership-card').first().textContent();
    assert(card.includes('Jane Doe') && card.includes('Acme Corporation') && card.includes('Pending'), `membership card, got ${card}`);
    await page.getByRole('heading', { name: 'YOUR MEMBERSHIP IS STILL PENDING' }).waitFor();
    await screenshot(page, 'accounts-desktop-06-membership');

    await page.goto(`${BASE_URL}/home`);
    await page.getByRole('heading', { name: 'Jane Doe' }).waitFor();
    await page.getByText('Pending first visit').waitFor();
    await page.waitForFunction(() => document.title === 'Member - Home');
    await screenshot(page, 'accounts-desktop-07-home');

    await page.goto(`${BASE_URL}/account/details`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    await screenshot(page, 'accounts-desktop-08-account');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('group', { name: 'Account' }).waitFor();
    await screenshot(page, 'accounts-desktop-09-avatar-menu');
    account.ready = true;
  } finally {
    await browser.close();
  }
});

test('accounts: a wrong password is refused with the server text', async () => {
  if (!account.ready) skip('no account: the registration test did not finish');
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await logIn(page, account.email, 'Not-the-password-1');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()).trim();
    assert(text === 'Invalid email and / or password', `the exact refusal, got '${text}'`);
    assert(page.url().includes('/login'), 'stays on login');
    await screenshot(page, 'accounts-desktop-10-wrong-password');
  } finally {
    await browser.close();
  }
});

test('accounts: one-time link login', async () => {
  requireDatabase();
  if (!account.ready) skip('no account: the registration test did not finish');
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    const before = await outboxLink(account.email);
    await page.goto(`${BASE_URL}/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Send me a one-time login link' }).click();
    await page.getByRole('dialog', { name: 'Check your Email' }).waitFor();
    const link = await outboxLink(account.email, before);
    assert(link.includes('/login?magicLink='), `magic link, got ${link}`);
    await page.goto(local(link));
    await page.waitForURL(/\/home/);
    await page.getByRole('heading', { name: 'Jane Doe' }).waitFor();
  } finally {
    await browser.close();
  }
});

test('accounts: an expired one-time link says so and offers a new one', async () => {
  requireDatabase();
  if (!account.ready) skip('no account: the registration test did not finish');
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    const before = await outboxLink(account.email);
    const response = await fetch(`${BASE_URL}/member/app/request/magic/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: account.email }) });
    assert(response.ok, `magic link request answered ${response.status}`);
    const link = await outboxLink(account.email, before);
    assert(link.includes('/login?magicLink='), `magic link, got ${link}`);
    // Expire it (15 minutes is too long to wait): the newest magic-link token of the account.
    const expired = sql(
      `update one_time_tokens set expires_at = now() - interval '1 minute' where id = (select t.id from one_time_tokens t join members m on m.id = t.member_id where m.email = ${quote(account.email)} and t.purpose = 'magic_link' order by t.id desc limit 1) returning id`,
    );
    assert(/^\d+/.test(expired), `one token expired, got '${expired}'`);
    await page.goto(local(link));
    const dialog = page.getByRole('dialog', { name: 'Your magic link has expired' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Send me a new link' }).waitFor();
    await screenshot(page, 'accounts-desktop-10b-magic-link-expired');
    assert(!(await page.context().cookies()).some((cookie) => cookie.name === 'token' && cookie.value), 'not signed in');
  } finally {
    await browser.close();
  }
});

test('accounts: forgot password, reset from the email, log in with the new password; the used link has expired', async () => {
  requireDatabase();
  if (!account.ready) skip('no account: the registration test did not finish');
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    const before = await outboxLink(account.email);
    await page.goto(`${BASE_URL}/forgot-password`);
    await page.getByLabel('Company E-mail').fill(account.email);
    await page.getByRole('button', { name: 'Send password reset link' }).click();
    await page.getByText('If there is an account associated to this e-mail, you will receive a link.').waitFor();
    await screenshot(page, 'accounts-desktop-11-forgot-password-sent');
    const link = await outboxLink(account.email, before);
    await setPasswordFromLink(page, link, NEW_PASSWORD);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText('Password saved successfully! Please continue to login.').waitFor();
    account.password = NEW_PASSWORD;

    await logIn(page, account.email, NEW_PASSWORD);
    await page.waitForURL(/\/home/);

    // The link worked once: opening it again lands on the expired page.
    await page.goto(local(link));
    await page.waitForURL(/\/expired/);
    await page.getByRole('heading', { name: 'Your link has expired' }).waitFor();
    await screenshot(page, 'accounts-desktop-12-expired-link');
  } finally {
    await browser.close();
  }
});

test('accounts: the screens on a phone (390 x 844)', async () => {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, MOBILE);
    await page.goto(`${BASE_URL}/login`);
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    await screenshot(page, 'accounts-mobile-01-login');
    await page.goto(`${BASE_URL}/register`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await screenshot(page, 'accounts-mobile-02-register');
    await page.goto(`${BASE_URL}/forgot-password`);
    await screenshot(page, 'accounts-mobile-03-forgot-password');
    if (!account.ready) skip('no account: the signed-in screens need the registration test');
    await logIn(page, account.email, account.password);
    await page.waitForURL(/\/home/);
    await page.getByRole('heading', { name: 'Jane Doe' }).waitFor();
    await screenshot(page, 'accounts-mobile-04-home');
    await page.goto(`${BASE_URL}/membership`);
    await page.getByTestId('membership-card').first().waitFor();
    await screenshot(page, 'accounts-mobile-05-membership');
    await page.goto(`${BASE_URL}/account/details`);
    await page.getByRole('heading', { name: 'My Account' }).waitFor();
    await screenshot(page, 'accounts-mobile-06-account');
    // The mobile Settings screen: change email with Send Verification, and the password form.
    await page.goto(`${BASE_URL}/account/settings`);
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.getByRole('button', { name: 'Send Verification', exact: true }).waitFor();
    await screenshot(page, 'accounts-mobile-07-settings');
    await page.goto(`${BASE_URL}/account/settings/change-password`);
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    await screenshot(page, 'accounts-mobile-08-settings-password');
    // A family member chosen to act on lives in session storage: Sign Out clears it too.
    await page.evaluate(() => window.sessionStorage.setItem('selectedDependent', '22'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(/\/login/);
    const cookies = await page.context().cookies();
    assert(!cookies.some((cookie) => cookie.name === 'token' && cookie.value), 'Sign Out clears the token cookie');
    const kept = await page.evaluate(() => [window.localStorage.length, window.sessionStorage.getItem('selectedDependent')]);
    assert(kept[0] === 0 && kept[1] === null, `Sign Out clears local and session storage, got ${JSON.stringify(kept)}`);
  } finally {
    await browser.close();
  }
});

test('accounts: change the login email from Settings and confirm it from the email', async () => {
  requireDatabase();
  if (!account.ready) skip('no account: the registration test did not finish');
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await logIn(page, account.email, account.password);
    await page.waitForURL(/\/home/);
    await page.goto(`${BASE_URL}/account/details?panel=settings`);
    await page.getByRole('button', { name: 'Change email' }).click();
    const newEmail = account.email.replace('@', '.new@');
    await page.getByLabel('New email').fill(newEmail);
    await page.getByLabel('Current password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Send verification link' }).click();
    await page.getByRole('dialog', { name: 'Check your E-mail' }).waitFor();
    await screenshot(page, 'accounts-desktop-13-change-email-sent');
    const link = await outboxLink(newEmail);
    assert(link.includes('/auth/confirm?token='), `change-of-email link, got ${link}`);
    await page.goto(local(link));
    await page.getByText('Great job! Your account is verified.').waitFor();
    await screenshot(page, 'accounts-desktop-14-email-confirmed');
    account.email = newEmail;
    await logIn(page, newEmail, account.password);
    await page.waitForURL(/\/home/);
  } finally {
    await browser.close();
  }
});
