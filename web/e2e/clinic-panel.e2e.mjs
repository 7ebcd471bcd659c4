// Browser test of the clinic panel (issue 22, docs/clinic-panel-contract.md) against the real
// server (NEARCARE_URL): a member chooses Front Range's LoDo clinic; the demo provider
// (demo.provider@frontrange-dpc.example, the clinic's seeded account) gets the "new member" email,
// opens its link, sees the member (and the seeded demo members) on /dpc-providers/members, and
// activates them; the member's Home, membership card and marketplace card then say Active. On a
// phone, a second member is declined with a reason, reads it on Home and is sent to the
// marketplace. The roster of the month downloads as CSV. Screenshots at 1280x800 and 390x844.
//
// Needs E2E_DATABASE_URL (names are given to the new members there, and rows are checked) and
// E2E_MAIL_DIR (the messages the e2e server's SMTP server received).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assert, BASE_URL, DESKTOP, fillBox, launchBrowser, local, logIn, MAIL_DIR, MOBILE, newPage, outboxLink, quote, requireDatabase, screenshot, sql, test } from './harness.mjs';

const PROVIDER_EMAIL = 'demo.provider@frontrange-dpc.example';
const PROVIDER_PASSWORD = 'Nearcare-clinic-22';
const MEMBER_PASSWORD = 'Nearcare-member-22';
const FRONT_RANGE = { id: 1, name: 'Front Range Direct Primary Care', lodo: 1, lodoName: 'LoDo' };
const ACME = 1;

/** The newest message the SMTP server received for `email` whose subject matches, polled. */
async function message(email, subject) {
  for (let attempt = 0; attempt < 80; attempt += 1) {
    const names = readdirSync(MAIL_DIR).filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort().reverse();
    for (const name of names) {
      const found = JSON.parse(readFileSync(path.join(MAIL_DIR, name), 'utf8'));
      if (found.rcpt_tos.some((to) => to.toLowerCase() === email) && subject.test(found.subject)) return found;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no message to ${email} with a subject like ${subject}`);
}

const firstLink = (found) => (found.text ?? '').split(/\s+/).find((word) => /^https?:\/\//.test(word)) ?? '';

/** The first link of each message the SMTP server received for `email`, newest first. */
function linksTo(email) {
  return readdirSync(MAIL_DIR)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort()
    .reverse()
    .map((name) => JSON.parse(readFileSync(path.join(MAIL_DIR, name), 'utf8')))
    .filter((found) => found.rcpt_tos.some((to) => to.toLowerCase() === email))
    .map(firstLink);
}

const RESET_LINK = '/auth/reset-password?token=';

/**
 * Gives the clinic's demo account a password through Forgot password (whatever ran before on
 * this server). The clinic is also emailed about every enrolment, by this test and by the ones
 * before it: the reset link is told apart from those, and from an older reset.
 */
async function providerPassword(page) {
  const before = linksTo(PROVIDER_EMAIL).find((link) => link.includes(RESET_LINK)) ?? '';
  const response = await fetch(`${BASE_URL}/member/app/request/password/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: PROVIDER_EMAIL }) });
  assert(response.ok, `the reset request answered ${response.status}`);
  let reset = '';
  for (let attempt = 0; attempt < 80 && !reset; attempt += 1) {
    reset = linksTo(PROVIDER_EMAIL).find((link) => link.includes(RESET_LINK) && link !== before) ?? '';
    if (!reset) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert(reset, `a new reset link for ${PROVIDER_EMAIL}`);
  await setPassword(page, reset, PROVIDER_PASSWORD);
}

async function setPassword(page, link, password) {
  await page.goto(local(link));
  await page.getByLabel('New Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /Set password|Reset password/ }).click();
  await page.getByRole('button', { name: 'Continue to Login' }).click();
  await page.waitForURL(/\/login/);
}

/**
 * A member of Acme who signs up, gives their details (written to the database: the personal
 * info form is not what this test is about), sets a password from the email and signs in.
 */
async function newMember(page, person) {
  const response = await fetch(`${BASE_URL}/member/app/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: person.email, employerId: ACME }) });
  assert(response.ok, `sign-up answered ${response.status}`);
  sql(
    `update members set first_name = ${quote(person.firstName)}, last_name = ${quote(person.lastName)}, dob = ${quote(person.dob)},
     phone = ${quote(person.phone)}, member_id = ${quote(person.memberId)}, plan_id = 'PLN-1001' where email = ${quote(person.email)}`,
  );
  await setPassword(page, await outboxLink(person.email), MEMBER_PASSWORD);
  await logIn(page, person.email, MEMBER_PASSWORD);
  await page.waitForURL(/\/marketplace/);
}

/** Searches around 80202 on the marketplace and answers Front Range's LoDo result card. */
async function lodoCard(page) {
  const box = page.getByRole('combobox', { name: 'Address, city or ZIP code' });
  await fillBox(box, '80202');
  const suggestion = page.getByRole('option', { name: /^80202/ }).first();
  try {
    await suggestion.waitFor({ timeout: 3000 });
    await suggestion.click();
  } catch {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  }
  const card = page.locator(`[data-testid="result-card"][data-location-id="${FRONT_RANGE.lodo}"][data-entity="location"]`);
  await card.waitFor({ timeout: 15_000 });
  return card;
}

/** Chooses Front Range's LoDo clinic from the marketplace's result card. */
async function chooseLodo(page) {
  const card = await lodoCard(page);
  await card.getByRole('button', { name: /^Select / }).click();
  // Eligibility is still to confirm: the app goes on to the plan form.
  await page.waitForURL(/\/confirm-plan-information/, { timeout: 15_000 });
}

const memberId = (email) => Number(sql(`select id from members where email = ${quote(email)}`));

test('clinic panel: a member enrols, the clinic is emailed and activates them, a second member is declined and reads why', async () => {
  requireDatabase();
  const stamp = Date.now();
  const maria = { email: `e2e-maria-${stamp}@acme.example`, firstName: 'Maria', lastName: `Panel${stamp % 100000}`, dob: '1988-02-14', phone: '+13035550141', memberId: `955-${stamp % 1000000}` };
  const leo = { email: `e2e-leo-${stamp}@acme.example`, firstName: 'Leo', lastName: `Declined${stamp % 100000}`, dob: '1990-07-01', phone: '+13035550142', memberId: `956-${stamp % 1000000}` };
  const browser = await launchBrowser();
  try {
    // The member chooses the clinic.
    const member = (await newPage(browser, DESKTOP)).page;
    await newMember(member, maria);
    await chooseLodo(member);
    const mariaId = memberId(maria.email);
    assert(sql(`select status from memberships where member_id = ${mariaId}`) === 'pending', 'a pending membership');

    // The clinic's email: who, where, and a link to the member in the portal.
    const told = await message(PROVIDER_EMAIL, new RegExp(`^New member: Maria ${maria.lastName} chose ${FRONT_RANGE.lodoName}$`));
    for (const fact of [`Member ID: ${maria.memberId}`, 'Date of birth: Feb 14, 1988', `E-mail: ${maria.email}`, 'Employer: Acme Corporation', 'Subscriber or dependent: Subscriber']) {
      assert(told.text.includes(fact), `the email says ${fact}:\n${told.text}`);
    }
    const link = firstLink(told);
    assert(link.endsWith(`/dpc-providers/members/${mariaId}`), `the email links to the member, got ${link}`);

    // The clinic signs in from that link and lands on the member.
    const clinic = (await newPage(browser, DESKTOP)).page;
    await providerPassword(clinic);
    await clinic.goto(local(link));
    await clinic.waitForURL(/\/login/);
    await clinic.getByLabel('Email').fill(PROVIDER_EMAIL);
    await clinic.getByRole('button', { name: 'Next' }).click();
    await clinic.getByLabel('Password', { exact: true }).fill(PROVIDER_PASSWORD);
    await clinic.getByRole('button', { name: 'Log In' }).click();
    await clinic.waitForURL(new RegExp(`/dpc-providers/members/${mariaId}$`));
    await clinic.getByRole('heading', { name: `Maria ${maria.lastName}`, level: 1 }).waitFor();
    await clinic.getByText('Pending first visit').first().waitFor();
    await clinic.getByText(maria.memberId).waitFor();
    await screenshot(clinic, 'clinic-panel-desktop-01-member-pending');

    // The members screen: the new member first in New, the seeded demo members around them.
    await clinic.getByRole('link', { name: 'Members' }).first().click();
    await clinic.waitForURL(/\/dpc-providers\/members$/);
    const table = clinic.getByRole('table');
    await table.getByRole('link', { name: `Maria ${maria.lastName}` }).waitFor();
    const firstRow = await table.getByRole('row').nth(1).innerText();
    assert(firstRow.includes(maria.lastName), `newest first, the first row is ${firstRow}`);
    assert((await clinic.getByRole('tab', { name: /^New/ }).getAttribute('aria-selected')) === 'true', 'New is the first tab');
    await table.getByRole('link', { name: 'Daniel Kim' }).waitFor();
    await screenshot(clinic, 'clinic-panel-desktop-02-members-new');
    await clinic.getByRole('tab', { name: /^Active/ }).click();
    await table.getByRole('link', { name: 'Priya Patel' }).waitFor();
    await clinic.getByRole('tab', { name: /^Past/ }).click();
    await table.getByRole('link', { name: 'Mia Becker' }).waitFor();
    await clinic.getByRole('tab', { name: /^New/ }).click();
    await clinic.getByRole('searchbox', { name: 'Search' }).fill(maria.lastName);
    await clinic.waitForURL(/q=/);
    // The rows before the search may still be shown while its answer comes: wait for it.
    let rows = 0;
    for (let attempt = 0; attempt < 40 && rows !== 2; attempt += 1) {
      if (attempt > 0) await clinic.waitForTimeout(250);
      rows = await table.getByRole('row').count();
    }
    await table.getByRole('link', { name: `Maria ${maria.lastName}` }).waitFor();
    assert(rows === 2, `the search keeps one member, ${rows - 1} shown`);

    // Activate from the list, first visit today.
    await clinic.getByRole('button', { name: `Activate Maria ${maria.lastName}` }).click();
    const activate = clinic.getByRole('dialog', { name: `Activate Maria ${maria.lastName}` });
    await activate.getByLabel('Date of the first visit').waitFor();
    const today = await activate.getByLabel('Date of the first visit').inputValue();
    assert(/^\d{4}-\d{2}-\d{2}$/.test(today), `the first visit defaults to today, got ${today}`);
    assert((await activate.getByLabel('Date of the first visit').getAttribute('max')) === today, 'no first visit in the future');
    await screenshot(clinic, 'clinic-panel-desktop-03-activate-dialog');
    await activate.getByRole('button', { name: 'Activate membership' }).click();
    await clinic.getByText(`Maria ${maria.lastName} is now an active member`).waitFor();
    await screenshot(clinic, 'clinic-panel-desktop-04-activated');
    assert(sql(`select actor || ',' || kind from enrolment_events where member_id = ${mariaId} order by id desc limit 1`) === 'provider,activated', 'the audit row names the provider');

    // The roster of this month, downloaded.
    const [download] = await Promise.all([clinic.waitForEvent('download'), clinic.getByRole('button', { name: 'Download roster (CSV)' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    assert(download.suggestedFilename() === `roster-${FRONT_RANGE.id}-${today.slice(0, 7)}.csv`, `the file name, got ${download.suggestedFilename()}`);
    assert(csv.startsWith('"Member ID","Name","Date of birth"'), `the header row, got ${csv.slice(0, 80)}`);
    assert(csv.includes(`"${maria.memberId}","Maria ${maria.lastName}","1988-02-14","Subscriber"`), `Maria is on the roster:\n${csv}`);

    // The member's side: Active on Home, the membership card and the clinic's marketplace card.
    await member.goto(`${BASE_URL}/home`);
    await member.getByText('Active', { exact: true }).first().waitFor();
    await member.getByText('Active Since').waitFor();
    await screenshot(member, 'clinic-panel-desktop-05-member-home-active');
    await member.goto(`${BASE_URL}/membership`);
    await member.getByRole('heading', { name: 'YOUR MEMBERSHIP IS ACTIVE' }).waitFor();
    await screenshot(member, 'clinic-panel-desktop-06-member-card-active');
    await member.goto(`${BASE_URL}/marketplace`);
    const card = await lodoCard(member);
    await card.getByRole('button', { name: /^Active Membership/ }).waitFor({ timeout: 15_000 });
    await screenshot(member, 'clinic-panel-desktop-07-member-card-button');

    // On a phone: a second member enrols, the clinic declines with a reason, the member reads it.
    const leoPage = (await newPage(browser, MOBILE)).page;
    await newMember(leoPage, leo);
    await chooseLodo(leoPage);
    const leoId = memberId(leo.email);
    await message(PROVIDER_EMAIL, new RegExp(`^New member: Leo ${leo.lastName} chose`));
    const phone = (await newPage(browser, MOBILE)).page;
    await logIn(phone, PROVIDER_EMAIL, PROVIDER_PASSWORD);
    await phone.waitForURL(/\/dpc-providers\/solutions$/);
    await phone.goto(`${BASE_URL}/dpc-providers/members`);
    const leoCard = phone.getByRole('article', { name: new RegExp(`^Leo ${leo.lastName}`) });
    await leoCard.waitFor();
    await screenshot(phone, 'clinic-panel-mobile-01-members');
    await leoCard.getByRole('button', { name: `Decline Leo ${leo.lastName}` }).click();
    const decline = phone.getByRole('dialog', { name: `Decline Leo ${leo.lastName}` });
    await decline.getByRole('button', { name: 'Decline enrolment' }).click();
    await decline.getByText('Please give a reason: the member will read it').waitFor();
    const reason = 'We cannot take new patients under 2 years old';
    await decline.getByLabel('Reason (the member reads it)').fill(reason);
    await screenshot(phone, 'clinic-panel-mobile-02-decline-dialog');
    await decline.getByRole('button', { name: 'Decline enrolment' }).click();
    await phone.getByText(`You declined Leo ${leo.lastName}'s enrolment`).waitFor();
    await phone.getByRole('tab', { name: /^Past/ }).click();
    await phone.getByRole('article', { name: new RegExp(`^Leo ${leo.lastName}`) }).waitFor();
    await screenshot(phone, 'clinic-panel-mobile-03-past');
    await phone.goto(`${BASE_URL}/dpc-providers/members/${leoId}`);
    await phone.getByText('Enrolment declined').waitFor();
    await screenshot(phone, 'clinic-panel-mobile-04-member-declined');

    const declined = await message(leo.email, /could not accept/);
    assert(declined.text.includes(reason), `the member's email carries the reason:\n${declined.text}`);
    assert(firstLink(declined).endsWith('/marketplace'), `and sends them to the marketplace, got ${firstLink(declined)}`);
    await leoPage.goto(`${BASE_URL}/home`);
    const notice = leoPage.getByTestId('membership-notice');
    await notice.getByText(reason).waitFor();
    await notice.getByText(/could not accept your enrolment/).waitFor();
    await screenshot(leoPage, 'clinic-panel-mobile-05-member-home-declined');
    await notice.getByRole('link', { name: 'Choose another clinic' }).click();
    await leoPage.waitForURL(/\/marketplace/);
    assert(sql(`select coalesce(location_id::text, 'none') || ',' || next_step from members where id = ${leoId}`) === 'none,selectDPC', 'the declined member chooses a clinic again');

    // The desktop screens of the same declined member and the Past tab.
    await clinic.goto(`${BASE_URL}/dpc-providers/members?status=past`);
    await clinic.getByRole('table').getByRole('link', { name: `Leo ${leo.lastName}` }).waitFor();
    await screenshot(clinic, 'clinic-panel-desktop-08-members-past');
    await clinic.goto(`${BASE_URL}/dpc-providers/members/${mariaId}`);
    await clinic.getByText(/Activated: first visit on/).waitFor();
    await screenshot(clinic, 'clinic-panel-desktop-09-member-active');
    await phone.goto(`${BASE_URL}/dpc-providers/members/${mariaId}`);
    await phone.getByRole('button', { name: 'End membership' }).click();
    await phone.getByRole('dialog', { name: `End Maria ${maria.lastName}'s membership` }).getByLabel('Last day of the membership').waitFor();
    await screenshot(phone, 'clinic-panel-mobile-06-end-dialog');
  } finally {
    await browser.close();
  }
});
