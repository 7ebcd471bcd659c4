// Browser tests of issue 21, "every promise the screens make is kept, and no saved form loses
// what the member had". They need the e2e server's database (E2E_DATABASE_URL): each run adds
// its own person to the eligibility roster, so it never collides with the demo roster's members
// that other tests enrol.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { api, assert, BASE_URL, DESKTOP, launchBrowser, MOBILE, newPage, outboxLink, quote, requireDatabase, screenshot, sql, test } from './harness.mjs';

/** The demo constants (crates/seed/src/demo.rs). */
const ACME = { id: 1, name: 'Acme Corporation', planId: 'PLN-1001', group: '1000011', payerId: '60054' };
const FRONT_RANGE = { id: 1, lodo: 1 };
/** Every journey here runs at the desktop and the phone width, labelled in its screenshots. */
const BOTH_WIDTHS = [
  [DESKTOP, 'desktop'],
  [MOBILE, 'mobile'],
];
/** The server's support address (NEARCARE_SUPPORT_EMAIL's default). */
const SUPPORT = 'support@nearcare.example';


/** A new Acme subscriber on the roster, with a member id of this run's own. */
function rosterPerson(firstName, lastName) {
  const memberId = `${100 + Math.floor(Math.random() * 900)}-${String(Date.now() % 1_000_000).padStart(6, '0')}`;
  const person = { firstName, lastName, dob: '1988-03-02', memberId };
  sql(
    `insert into eligibility_roster (payer_id, member_id, first_name, last_name, date_of_birth, plan_id, group_number, relation, subscriber_member_id)
     values ('${ACME.payerId}', '${memberId}', '${firstName}', '${lastName}', '${person.dob}', '${ACME.planId}', '${ACME.group}', 'Self', '${memberId}')`,
  );
  return person;
}

/** Signs `person` up with the LoDo clinic chosen, confirms the email from its link and their eligibility: enrolled, pending the first visit. */
async function enrolledMember(person) {
  const email = `e2e-promises-${person.firstName.toLowerCase()}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@acme.example`;
  const signup = await api('/member/app/signup', {
    method: 'POST',
    body: { email, employerId: ACME.id, providerId: FRONT_RANGE.id, locationId: FRONT_RANGE.lodo, terms_and_conditions: true },
  });
  const link = new URL(await outboxLink(email));
  await api('/member/app/validate/token', { method: 'POST', body: { token: link.searchParams.get('token') } });
  const confirmed = await api('/member/app/confirm/info', {
    token: signup.accessToken,
    method: 'POST',
    body: { ...person, gender: 'f', phone: '+1 303 555 0123', planId: ACME.planId, subscriberRelation: 'Self', employerId: ACME.id },
  });
  assert(confirmed.nextStep === 'complete', `enrolled, got ${JSON.stringify(confirmed)}`);
  return { email, token: confirmed.newAccessToken };
}

async function signedInPage(browser, viewport, token) {
  const opened = await newPage(browser, viewport);
  await opened.context.addCookies([{ name: 'token', value: token, url: BASE_URL }]);
  return opened;
}

test('promises: a confirmed member renames, sees the check refuse the new name at once, and confirms eligibility again (desktop and phone)', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    for (const [viewport, label] of BOTH_WIDTHS) {
      const person = rosterPerson('Maria', `Rename${label}`);
      const member = await enrolledMember(person);
      const { page } = await signedInPage(browser, viewport, member.token);
      await page.goto(`${BASE_URL}/account/details`);
      await page.getByRole('heading', { name: 'My Account' }).waitFor();
      await page.getByText('Active', { exact: true }).first().waitFor();
      await page.getByRole('link', { name: 'Edit personal information' }).click();
      await page.waitForURL(/\/account\/edit-subscriber/);

      // Maria -> Mariah: another insured person; the roster knows Maria only.
      const first = page.getByLabel('First name');
      await first.fill('Mariah');
      await screenshot(page, `promises-${label}-01-rename`);
      await page.getByRole('button', { name: 'Save Information' }).click();
      const refused = page.getByRole('dialog', { name: 'Oops! We could not confirm eligibility.' });
      await refused.waitFor();
      assert((await page.getByRole('dialog', { name: "Great! You're all set." }).count()) === 0, "no You're all set for a refused check");
      await refused.getByText('your eligibility is not confirmed').waitFor();
      await screenshot(page, `promises-${label}-02-refused`);
      await refused.getByRole('button', { name: 'Fix Later' }).click();
      await page.waitForURL(/\/account\/details/);
      await page.getByText('*pending eligibility confirmation').waitFor();
      await page.getByText('Eligibility, not confirmed').first().waitFor();
      const stored = sql(`select first_name || ',' || coalesce(eligibility_status, 'none') || ',' || next_step || ',' || location_id from members where email = '${member.email}'`);
      assert(stored === `Mariah,none,confirmPlan,${FRONT_RANGE.lodo}`, `saved, not confirmed, the clinic kept; got ${stored}`);

      // Home offers the way forward.
      await page.goto(`${BASE_URL}/home`);
      const confirm = page.getByRole('link', { name: 'Confirm Eligibility' }).or(page.getByRole('button', { name: 'Confirm Eligibility' }));
      await confirm.first().waitFor();
      await screenshot(page, `promises-${label}-03-home-confirm-eligibility`);
      await confirm.first().click();
      await page.waitForURL(/\/confirm-plan-information/);
      const formFirst = page.getByLabel('First name');
      await formFirst.waitFor();
      await screenshot(page, `promises-${label}-04-eligibility-form`);
      assert((await formFirst.inputValue()) === 'Mariah', `the form starts from the saved details, got ${await formFirst.inputValue()}`);
      await formFirst.fill(person.firstName);
      await page.getByRole('button', { name: 'Confirm Eligibility' }).click();
      const done = page.getByRole('dialog', { name: /Eligibility confirmed!|You're enrolled with/ });
      await done.waitFor({ timeout: 15_000 });
      await screenshot(page, `promises-${label}-05-confirmed-again`);
      const after = sql(`select first_name || ',' || eligibility_status || ',' || next_step || ',' || subscription_status from members where email = '${member.email}'`);
      assert(after === 'Maria,active,complete,pending', `enrolled again, got ${after}`);
      await page.goto(`${BASE_URL}/home`);
      await page.getByText('Pending first visit').first().waitFor();
      await page.waitForTimeout(500);
      assert((await confirm.count()) === 0, 'no Confirm Eligibility once confirmed');

      // Back on the edit screen, the same name in capitals is the same insured person: still confirmed.
      await page.goto(`${BASE_URL}/account/edit-subscriber`);
      await page.getByLabel('First name').waitFor();
      await page.getByLabel('First name').fill('MARIA');
      await page.getByRole('button', { name: 'Save Information' }).click();
      const allSet = page.getByRole('dialog', { name: "Great! You're all set." });
      await allSet.waitFor();
      await screenshot(page, `promises-${label}-06-same-person-all-set`);
      assert(sql(`select eligibility_status from members where email = '${member.email}'`) === 'active', 'still confirmed');
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

/** The messages the e2e server's SMTP server received for `address`, oldest first. */
function messagesTo(address) {
  const folder = process.env.E2E_MAIL_DIR ?? '';
  assert(folder, 'E2E_MAIL_DIR is set (scripts/test.sh exports it)');
  return readdirSync(folder)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(folder, name), 'utf8')))
    .filter((message) => message.rcpt_tos.some((to) => to.toLowerCase() === address));
}

async function waitForMessage(address, test) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const found = messagesTo(address).find(test);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no matching message to ${address}`);
}

test('promises: a new member asks to be called back from /confirm-info (support is emailed) and keeps a +1 phone as typed (desktop and phone)', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    for (const [viewport, label] of BOTH_WIDTHS) {
      const email = `e2e-promises-callback-${label}-${Date.now()}@acme.example`;
      const signup = await api('/member/app/signup', { method: 'POST', body: { email, employerId: ACME.id, terms_and_conditions: true } });
      const { page } = await newPage(browser, viewport);
      // The link's token signs the new member in (2.1: /confirm-info takes a token query).
      await page.goto(`${BASE_URL}/confirm-info?token=${signup.accessToken}`);
      await page.getByRole('heading', { name: 'Confirm your information' }).waitFor();
      await page.getByLabel('First name').fill('Rosa');
      await page.getByLabel('Last name').fill(`Callback${label}`);
      const phone = page.getByLabel('Mobile phone');
      await phone.pressSequentially('+1 303 555 0123');
      assert((await phone.inputValue()) === '+1 303 555 0123', `the mask keeps the number, got ${await phone.inputValue()}`);
      await screenshot(page, `promises-${label}-07-confirm-info`);
      await page.getByRole('button', { name: 'Confirm Information' }).click();
      const done = page.getByRole('dialog', { name: "Great! You're all set." });
      await done.getByText('A representative will contact you shortly to complete your enrolment.').waitFor();
      await screenshot(page, `promises-${label}-08-confirm-info-sent`);
      const stored = sql(`select first_name || ' ' || last_name || ',' || phone || ',' || coalesce(gender, 'none') from members where email = '${email}'`);
      assert(stored === `Rosa Callback${label},+13035550123,none`, `saved what the form asked, got ${stored}`);
      const message = await waitForMessage(SUPPORT, (candidate) => candidate.text.includes(email));
      assert(message.subject === `Please call Rosa Callback${label} back`, `the support email's subject, got ${message.subject}`);
      assert(message.text.includes('Phone: +13035550123'), `the support email names the phone, got ${message.text}`);

      // The contact screen: the phone alone, with the +1 kept.
      await page.goto(`${BASE_URL}/account/edit-contact`);
      const contact = page.getByLabel('Mobile phone');
      await contact.waitFor();
      assert((await contact.inputValue()) === '303 555 0123', `the stored number shown, got ${await contact.inputValue()}`);
      await contact.fill('');
      await contact.pressSequentially('+1 720 555 0100');
      assert((await contact.inputValue()) === '+1 720 555 0100', `the mask keeps the number, got ${await contact.inputValue()}`);
      await screenshot(page, `promises-${label}-09-edit-contact`);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('dialog', { name: "Great! You're all set." }).getByText('Contact Information confirmed').waitFor();
      await screenshot(page, `promises-${label}-10-edit-contact-saved`);
      assert(sql(`select phone from members where email = '${email}'`) === '+17205550100', 'stored in E.164');
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

test('promises: the footer and sign-up lead to the operator\'s Terms, Privacy and Cookie pages, and the account keeps the Terms version it agreed to (desktop and phone)', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    for (const [viewport, label] of BOTH_WIDTHS) {
      const { page, context } = await newPage(browser, viewport);
      await page.goto(`${BASE_URL}/welcome`);
      for (const [link, title] of [
        ['Privacy Policy', 'Privacy Policy'],
        ['Cookie Policy', 'Cookie Policy'],
        ['Terms of Use', 'Terms of Use'],
      ]) {
        await page.getByRole('contentinfo').getByRole('link', { name: link }).click();
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        assert((await page.title()) === `Member - ${title}`, `${link}: title ${await page.title()}`);
        assert((await page.getByText('Page Not Found').count()) === 0, `${link} is a real page`);
        await page.goBack();
      }
      await page.goto(`${BASE_URL}/terms`);
      await page.getByRole('heading', { level: 1, name: 'Terms of Use' }).waitFor();
      const shownVersion = await page.locator('article[data-version]').getAttribute('data-version');
      await screenshot(page, `promises-${label}-terms`);

      const email = `e2e-terms-${label}-${Date.now()}@acme.example`;
      await page.goto(`${BASE_URL}/register?company=Acme`);
      await page.getByLabel('Company E-mail').fill(email);
      const termsLink = page.getByRole('link', { name: 'Terms of Use' });
      assert((await termsLink.getAttribute('href')) === '/terms', 'the sign-up links the Terms page');
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('dialog', { name: 'Congratulations!' }).waitFor();
      const agreed = sql(
        `select a.version || ' ' || (a.agreed_at > now() - interval '5 minutes') from terms_agreements a join members m on m.id = a.member_id where m.email = ${quote(email)}`,
      );
      assert(agreed === `${shownVersion} true`, `the agreement kept with the account: ${agreed}, shown ${shownVersion}`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});
