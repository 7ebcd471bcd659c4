// Browser tests of enrolment, provider change, waitlist, favourites and family against the real
// server (NEARCARE_URL). They need a fresh database (E2E_DATABASE_URL, as scripts/test.sh exports;
// without it they fail):
// the demo roster's Alex Rivera (Northwind) registers here, and Jane Doe's family is used with the
// account the accounts tests created (or one made here when they did not run).
import { assert, BASE_URL, DESKTOP, fillBox, latestLink, launchBrowser, local, logIn, MOBILE, newPage, outboxLink, quote, requireDatabase, screenshot, skip, sql, test } from './harness.mjs';

const PASSWORD = 'Nearcare-e2e-5';

/** The demo constants (crates/seed/src/demo.rs). */
const FRONT_RANGE = { id: 1, name: 'Front Range Direct Primary Care', lodo: 1, cherryCreek: 2, highlands: 3 };
const HUDSON = { id: 3, name: 'Hudson Family Health', chelsea: 5 };
const ALEX = { firstName: 'Alex', lastName: 'Rivera', dob: '02141990', memberId: '234-567890', employer: 'Northwind Health Partners', phone: '3035550142' };
const JANE = { firstName: 'Jane', lastName: 'Doe', dob: '04121985', memberId: '123-456789', employer: 'Acme Corporation', phone: '3035550100' };
const JOHN = { firstName: 'John', lastName: 'Doe', dob: '09301984', memberId: '123-456790' };

/** Alex's account, made by the first test and used by the next ones. */
const alex = { email: `e2e-alex-${Date.now()}@northwind.example`, ready: false };

/** Signs in through a one-time link (for an account whose password this file does not know). */
async function logInByLink(page, email) {
  const before = latestLink(email);
  const response = await fetch(`${BASE_URL}/member/app/request/magic/link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  assert(response.ok, `magic link request answered ${response.status}`);
  const link = await outboxLink(email, before);
  assert(link.includes('magicLink='), `a magic link for ${email}`);
  await page.goto(local(link));
}

/** Registers `person` with the marketplace's employer and clinic, sets the password from the email, signs in. */
async function registerAndSignIn(page, email) {
  await page.waitForURL(/\/register$/);
  await page.getByLabel('Company E-mail').fill(email);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('dialog', { name: 'Congratulations!' }).waitFor();
  const link = await outboxLink(email);
  await page.goto(local(link));
  await page.getByLabel('New Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: /Set password|Reset password/ }).click();
  await page.getByRole('button', { name: 'Continue to Login' }).click();
  await page.waitForURL(/\/login/);
  await logIn(page, email, PASSWORD);
}

/** Fills and sends the eligibility form, then closes the confirmation on the membership card. */
async function confirmEligibility(page, person, shots) {
  await page.waitForURL(/\/confirm-plan-information/);
  await page.getByLabel('First name').fill(person.firstName);
  await page.getByLabel('Last name').fill(person.lastName);
  await page.getByLabel('Date of birth').pressSequentially(person.dob);
  await page.getByLabel('Gender').selectOption(person.firstName === 'Alex' ? 'm' : 'f');
  await page.getByLabel('Mobile phone').pressSequentially(person.phone);
  await page.getByLabel('Member ID').fill(person.memberId);
  if (shots) await screenshot(page, `${shots}-eligibility`);
  await page.getByRole('button', { name: 'Confirm Eligibility' }).click();
  const addFamily = page.getByRole('dialog', { name: 'Eligibility confirmed!' });
  const enrolled = page.getByRole('dialog', { name: /You're enrolled with/ });
  const exists = page.getByRole('dialog', { name: 'Oops, it seems an account already exists with this information.' });
  await Promise.race([addFamily.waitFor(), enrolled.waitFor(), exists.waitFor()]);
  if (await exists.isVisible()) throw new Error(`${person.firstName} ${person.lastName} is already enrolled on this database: run the browser tests on a fresh one`);
  if (await addFamily.isVisible()) await addFamily.getByRole('button', { name: "No I'm all set" }).click();
  else await enrolled.getByRole('button', { name: /Okay|Connect me now/ }).click();
  await page.waitForURL(/\/membership/);
}

async function chooseEmployer(page, name) {
  await page.getByRole('button', { name: /Select your employer/ }).first().click();
  await page.getByPlaceholder('Search employer here').fill(name.slice(0, 4));
  await page.getByRole('option', { name }).click();
  await page.getByTestId('employer-banner').waitFor();
}

async function searchAddress(page, address) {
  const box = page.getByRole('combobox', { name: 'Address, city or ZIP code' });
  await fillBox(box, address);
  const suggestion = page.getByRole('option', { name: new RegExp(`^${address.split(',')[0]}`) }).first();
  try {
    await suggestion.waitFor({ timeout: 3000 });
    await suggestion.click();
  } catch {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  }
  // The cards of this search, not of one the page restored before it.
  const place = address.split(',')[0];
  try {
    await page.waitForURL((url) => (url.searchParams.get('location') ?? '').startsWith(place) && url.searchParams.has('lat'), { timeout: 15_000 });
  } catch (error) {
    const box = await page.getByRole('combobox', { name: 'Address, city or ZIP code' }).inputValue().catch(() => '?');
    await screenshot(page, `failed-search-${place}`);
    throw new Error(`the search for ${address} did not start: the page is at ${page.url()} with "${box}" in the address box`, { cause: error });
  }
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  await page.getByTestId('result-card').first().waitFor({ timeout: 15_000 });
}

/** The result card of one clinic location. */
const locationCard = (page, locationId) => page.locator(`[data-testid="result-card"][data-location-id="${locationId}"][data-entity="location"]`);

async function homeShows(page, name, clinic) {
  await page.goto(`${BASE_URL}/home`);
  await page.getByRole('heading', { name }).waitFor();
  const card = page.locator('section, div').filter({ has: page.getByRole('heading', { name: 'My Advanced Primary Care' }) }).last();
  await card.getByText(clinic).first().waitFor();
}

test('enrolment: a visitor selects a clinic on a result card, registers, confirms eligibility, and Home shows the clinic', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await page.goto(`${BASE_URL}/marketplace`);
    await chooseEmployer(page, ALEX.employer);
    await searchAddress(page, '80202');
    const lodo = locationCard(page, FRONT_RANGE.lodo);
    await lodo.waitFor();
    assert((await lodo.getByRole('button', { name: /to favorites/ }).count()) === 0, 'no heart while signed out');
    await screenshot(page, 'enrolment-desktop-01-results-signed-out');
    await lodo.getByRole('button', { name: /^Select / }).click();
    await page.waitForURL(/\/register$/);
    const stored = await page.evaluate(() => window.localStorage.getItem('selectedProvider'));
    // Registration clears local storage on entry and keeps the provider in memory: the sign-up carries it.
    assert(stored === null || stored.includes(`"locationId":${FRONT_RANGE.lodo}`), `selected provider, got ${stored}`);
    await page.getByRole('button', { name: new RegExp(ALEX.employer) }).waitFor();
    await screenshot(page, 'enrolment-desktop-02-register');

    await registerAndSignIn(page, alex.email);
    await confirmEligibility(page, ALEX, 'enrolment-desktop-03');
    await page.getByTestId('membership-card').first().waitFor();
    const card = await page.getByTestId('membership-card').first().textContent();
    assert(card.includes('Alex Rivera') && card.includes(FRONT_RANGE.name) && card.includes('Pending'), `membership card, got ${card}`);

    await homeShows(page, 'Alex Rivera', FRONT_RANGE.name);
    await page.getByText('Pending first visit').first().waitFor();
    await screenshot(page, 'enrolment-desktop-04-home-enrolled');
    const row = sql(`select provider_id || ',' || location_id || ',' || subscription_status || ',' || next_step from members where email = ${quote(alex.email)}`);
    assert(row === `${FRONT_RANGE.id},${FRONT_RANGE.lodo},pending,complete`, `stored enrolment, got ${row}`);
    const searches = sql(`select count(*) from analytics_events where name = 'search_metadata' and properties->>'addressSearched' like '80202%' and (properties->>'number')::int = 5`);
    assert(Number(searches) >= 1, `the search's analytics record, got ${searches}`);
    alex.ready = true;
  } finally {
    await browser.close();
  }
});

test('enrolment: a pending provider is changed after the confirmation; a clinic with its own portal offers Connect me now', async () => {
  requireDatabase();
  if (!alex.ready) skip('no enrolled account: the first enrolment test did not finish');
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await logIn(page, alex.email, PASSWORD);
    await page.waitForURL(/\/home/);

    // From a clinic profile: Hudson Family Health, Chelsea (in Northwind's network).
    await page.goto(`${BASE_URL}/marketplace/provider/details/${HUDSON.id}?location=${HUDSON.chelsea}`);
    await page.getByRole('button', { name: 'Select provider' }).click();
    const confirm = page.getByRole('dialog', { name: 'Change provider?' });
    await confirm.waitFor();
    assert((await confirm.textContent()).includes(`You have a pending membership with ${FRONT_RANGE.name}`), 'names the current clinic');
    await screenshot(page, 'enrolment-desktop-05-change-provider');
    await confirm.getByRole('button', { name: 'Yes, change provider' }).click();
    const changed = page.getByRole('dialog', { name: 'Provider changed' });
    await changed.getByText(`You now have a pending membership with ${HUDSON.name}`).waitFor();
    await screenshot(page, 'enrolment-desktop-06-provider-changed');
    await changed.getByRole('button', { name: 'View my membership' }).click();
    await page.waitForURL(/\/membership/);
    await homeShows(page, 'Alex Rivera', HUDSON.name);

    // From a result card: Highlands has a post-enrolment redirect.
    await page.goto(`${BASE_URL}/marketplace`);
    await page.getByTestId('employer-banner').waitFor();
    await searchAddress(page, '80211');
    const highlands = locationCard(page, FRONT_RANGE.highlands);
    await highlands.getByRole('button', { name: /^Select / }).click();
    await page.getByRole('dialog', { name: 'Change provider?' }).getByRole('button', { name: 'Yes, change provider' }).click();
    const connect = page.getByRole('dialog', { name: `You now have a pending membership with ${FRONT_RANGE.name}` });
    await connect.waitFor();
    await screenshot(page, 'enrolment-desktop-07-connect');
    // The portal is outside this closed network: record what opens instead of loading it.
    await page.evaluate(() => {
      window.__opened = [];
      window.open = (url) => {
        window.__opened.push(String(url));
        return null;
      };
    });
    await connect.getByRole('button', { name: 'Connect me now' }).click();
    await page.waitForURL(/\/membership/);
    const opened = await page.evaluate(() => window.__opened);
    assert(opened.length === 1 && opened[0].startsWith('https://portal.'), `the clinic's portal opens, got ${opened}`);
    const row = sql(`select location_id || ',' || subscription_status from members where email = ${quote(alex.email)}`);
    assert(row === `${FRONT_RANGE.highlands},pending`, `changed enrolment, got ${row}`);
    const events = sql(`select count(*) from enrolment_events e join members m on m.id = e.member_id where m.email = ${quote(alex.email)} and e.kind = 'provider_changed'`);
    assert(events === '2', `two provider_changed audit rows, got ${events}`);
    const selected = sql(`select count(*) from analytics_events a join members m on m.id = a.member_id where m.email = ${quote(alex.email)} and a.name = 'member_clinic_selected'`);
    assert(Number(selected) >= 2, `member_clinic_selected events, got ${selected}`);
  } finally {
    await browser.close();
  }
});

test('enrolment: joining the waitlist of a full clinic, signed out with consent and signed in at once', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, MOBILE);
    const visitor = `e2e-waitlist-${Date.now()}@example.com`;
    await page.goto(`${BASE_URL}/marketplace/provider/details/${FRONT_RANGE.id}?location=${FRONT_RANGE.cherryCreek}`);
    const footer = page.getByTestId('clinic-footer');
    await footer.getByText('This location is not accepting new patients at the moment').waitFor();
    await footer.getByRole('button', { name: 'Join the waitlist' }).click();
    const dialog = page.getByRole('dialog', { name: 'Join the waitlist' });
    const notify = dialog.getByRole('button', { name: 'Notify Me' });
    assert(await notify.isDisabled(), 'Notify Me waits for the email and consent');
    await dialog.getByLabel('Email').fill(`  ${visitor.toUpperCase()}`);
    await dialog.getByLabel('I agree to be contacted by the provider').check();
    await page.waitForFunction((expected) => document.querySelector('dialog[open] input[type="email"]')?.value === expected, visitor);
    await screenshot(page, 'enrolment-mobile-01-waitlist-form');
    await notify.click();
    await page.getByRole('dialog', { name: "You're on the waitlist" }).waitFor();
    await screenshot(page, 'enrolment-mobile-02-waitlist-added');
    const entry = sql(`select location_id || ',' || consent || ',' || (search ? 'filters') from waitlist_entries where email = ${quote(visitor)}`);
    assert(entry === `${FRONT_RANGE.cherryCreek},true,true`, `waitlist row, got ${entry}`);

    if (!alex.ready) skip('no account for the signed-in half: the first enrolment test did not finish');
    await logIn(page, alex.email, PASSWORD);
    await page.waitForURL(/\/home/);
    await page.goto(`${BASE_URL}/marketplace/provider/details/${FRONT_RANGE.id}?location=${FRONT_RANGE.cherryCreek}`);
    await page.getByTestId('clinic-footer').getByRole('button', { name: 'Join the waitlist' }).click();
    const added = page.getByRole('dialog', { name: "You've been added to the waitlist" });
    await added.getByText(`We'll email ${alex.email} when a spot opens.`).waitFor();
    const rows = sql(`select count(*) from waitlist_entries w join members m on m.id = w.member_id where m.email = ${quote(alex.email)} and w.location_id = ${FRONT_RANGE.cherryCreek}`);
    assert(rows === '1', `the member's waitlist row, got ${rows}`);
  } finally {
    await browser.close();
  }
});

test('enrolment: favourites from a card, the Favorites filter and the heart on the profile (phone)', async () => {
  requireDatabase();
  if (!alex.ready) skip('no account: the first enrolment test did not finish');
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, MOBILE);
    await logIn(page, alex.email, PASSWORD);
    await page.waitForURL(/\/home/);
    await page.goto(`${BASE_URL}/marketplace`);
    await page.getByTestId('employer-banner').waitFor();
    await searchAddress(page, '80202');
    const lodo = locationCard(page, FRONT_RANGE.lodo);
    await lodo.getByRole('button', { name: /^Add .* to favorites$/ }).click();
    await lodo.getByRole('button', { name: /^Remove .* from favorites$/ }).waitFor();
    await lodo.getByTestId('favorite-flag').waitFor();
    await screenshot(page, 'enrolment-mobile-03-favorite-card');
    const stored = sql(`select count(*) from member_favorites f join members m on m.id = f.member_id where m.email = ${quote(alex.email)} and f.entity = 'location' and f.entity_id = ${FRONT_RANGE.lodo}`);
    assert(stored === '1', `favourite stored, got ${stored}`);

    // The change-provider confirmation on a phone; No, go back keeps the current clinic.
    await page.goto(`${BASE_URL}/marketplace/provider/details/${HUDSON.id}?location=${HUDSON.chelsea}`);
    await page.getByRole('button', { name: 'Select provider' }).click();
    const confirm = page.getByRole('dialog', { name: 'Change provider?' });
    await confirm.waitFor();
    await screenshot(page, 'enrolment-mobile-06-change-provider');
    await confirm.getByRole('button', { name: 'No, go back' }).click();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('group', { name: 'Account' }).waitFor();
    await screenshot(page, 'enrolment-mobile-07-avatar-menu');
    await page.keyboard.press('Escape');

    // The Favorites filter keeps the favourite clinic only.
    await page.goto(`${BASE_URL}/marketplace`);
    await page.getByTestId('result-card').first().waitFor();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Favorites', exact: true }).check();
    const searched = page.waitForResponse((response) => response.url().includes('/member/app/market/search') && (response.request().postData() ?? '').includes('"favorites":true'));
    await page.getByRole('button', { name: 'View results' }).click();
    await page.getByRole('list', { name: 'Active filters' }).getByText('Favorites').waitFor();
    await searched;
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    const cards = await page.locator('[data-testid="result-card"][data-entity="location"]').count();
    assert(cards === 1, `only the favourite clinic, got ${cards} cards`);
    await screenshot(page, 'enrolment-mobile-04-favorites-filter');

    await page.goto(`${BASE_URL}/marketplace/provider/details/${FRONT_RANGE.id}?location=${FRONT_RANGE.lodo}`);
    await page.getByRole('button', { name: 'Favorite', exact: true }).click();
    await page.getByRole('button', { name: 'Add to favorites' }).waitFor();
    await screenshot(page, 'enrolment-mobile-05-profile-unfavorited');
  } finally {
    await browser.close();
  }
});

/** Jane's login: the account the accounts tests made (its email may have changed), else a new one. */
async function janeSignedIn(page) {
  const email = sql(`select email from members where member_id = ${quote(JANE.memberId)} and subscriber_relation = 'Self' and email is not null order by id limit 1`);
  if (email) {
    await logInByLink(page, email);
    await page.waitForURL(/\/home|\/marketplace|\/confirm-plan-information/);
    return email;
  }
  const fresh = `e2e-jane-${Date.now()}@acme.example`;
  await page.goto(`${BASE_URL}/marketplace`);
  await chooseEmployer(page, JANE.employer);
  await page.goto(`${BASE_URL}/marketplace/provider/details/${FRONT_RANGE.id}?location=${FRONT_RANGE.lodo}`);
  await page.getByRole('button', { name: 'Select provider' }).click();
  await registerAndSignIn(page, fresh);
  await confirmEligibility(page, JANE, null);
  return fresh;
}

test('enrolment: add a family member, enrol them in the same clinic, switch to them and back, remove them', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await janeSignedIn(page);
    await homeShows(page, 'Jane Doe', FRONT_RANGE.name);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('group', { name: 'Account' }).getByRole('link', { name: 'Add a family member' }).click();
    await page.waitForURL(/\/add-family-member/);
    // 'Use my contact information' is offered for a dependent, hidden for a spouse.
    const useMyContact = page.getByLabel('Use my contact information');
    await page.getByLabel('Relationship').selectOption('Dependent');
    await useMyContact.waitFor();
    await page.getByLabel('Relationship').selectOption('Spouse');
    await useMyContact.waitFor({ state: 'detached' });
    assert((await useMyContact.count()) === 0, "no 'Use my contact information' for a spouse");
    await page.getByLabel('First name').fill(JOHN.firstName);
    await page.getByLabel('Last name').fill(JOHN.lastName);
    await page.getByLabel('Date of birth').fill('');
    await page.getByLabel('Date of birth').pressSequentially(JOHN.dob);
    await page.getByLabel('Gender').selectOption('m');
    await page.getByLabel('Email').fill('john.doe@acme.example');
    await page.getByLabel('Mobile phone').pressSequentially('3035550101');
    await page.getByLabel('Member ID').fill(JOHN.memberId);
    await screenshot(page, 'enrolment-desktop-08-add-family');
    await page.getByRole('button', { name: 'Confirm Eligibility' }).click();
    // John is a spouse: the dialogs call him so, not a dependent.
    const added = page.getByRole('dialog', { name: "Success! You've added your spouse" });
    await added.waitFor();
    await screenshot(page, 'enrolment-desktop-09-dependent-added');
    await added.getByRole('button', { name: 'Enroll in the same DPC as main account' }).click();
    const enrolled = page.getByRole('dialog', { name: 'Spouse Enrolled Successfully' });
    await enrolled.waitFor();
    await screenshot(page, 'enrolment-desktop-10-dependent-enrolled');
    await enrolled.getByRole('button', { name: 'Okay' }).click();
    await page.waitForURL(/\/account\/details/);

    // The menu lists John with his clinic; the membership cards cover the family.
    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('group', { name: 'Account' });
    const johnRow = menu.getByTestId('menu-person').filter({ hasText: 'John Doe' });
    await johnRow.getByText(FRONT_RANGE.name).waitFor();
    await screenshot(page, 'enrolment-desktop-11-family-menu');
    await page.keyboard.press('Escape');
    await page.goto(`${BASE_URL}/membership`);
    await page.getByRole('article', { name: 'Membership card of John Doe' }).waitFor();
    await screenshot(page, 'enrolment-desktop-12-family-membership-cards');

    // Jane has family now: after Connect me now (Highlands has its own portal) she is asked to add family.
    await page.goto(`${BASE_URL}/marketplace/provider/details/${FRONT_RANGE.id}?location=${FRONT_RANGE.highlands}`);
    await page.getByRole('button', { name: 'Select provider' }).click();
    await page.getByRole('dialog', { name: 'Change provider?' }).getByRole('button', { name: 'Yes, change provider' }).click();
    const connect = page.getByRole('dialog', { name: `You now have a pending membership with ${FRONT_RANGE.name}` });
    await connect.getByRole('button', { name: 'Connect me now' }).waitFor();
    await page.evaluate(() => {
      window.open = () => null;
    });
    await connect.getByRole('button', { name: 'Connect me now' }).click();
    const question = page.getByRole('dialog', { name: 'Add family members' });
    await question.getByText('Would you like to add your family members to your membership?').waitFor();
    await screenshot(page, 'enrolment-desktop-16-add-family-question');
    await question.getByRole('button', { name: 'Yes' }).click();
    await page.waitForURL(/\/add-family-member/);
    const janeRow = sql(`select location_id || ',' || subscription_status from members where member_id = ${quote(JANE.memberId)} and subscriber_relation = 'Self'`);
    assert(janeRow === `${FRONT_RANGE.highlands},pending`, `Jane changed to Highlands, got ${janeRow}`);

    // Choosing for John on the marketplace: his own search, and Select changes his pending provider.
    await page.goto(`${BASE_URL}/marketplace`);
    await page.getByLabel('Choosing a provider for').selectOption({ label: `John Doe — ${FRONT_RANGE.name}` });
    const dependentSearch = page.waitForRequest((request) => /\/member\/app\/family\/member\/\d+\/market$/.test(new URL(request.url()).pathname));
    await searchAddress(page, '10001');
    await dependentSearch;
    await screenshot(page, 'enrolment-desktop-15-choosing-for-john');
    await locationCard(page, HUDSON.chelsea).getByRole('button', { name: /^Select / }).click();
    const change = page.getByRole('dialog', { name: 'Change provider?' });
    await change.getByText(`John has a pending membership with`).waitFor();
    await change.getByRole('button', { name: 'Yes, change provider' }).click();
    const johnChanged = page.getByRole('dialog', { name: 'Provider changed' });
    await johnChanged.getByText(`John now has a pending membership with ${HUDSON.name}.`).waitFor();
    await johnChanged.getByRole('button', { name: 'Okay' }).click();
    await page.waitForURL(/\/account\/details\?panel=family/);
    await page.getByTestId('family-member').filter({ hasText: 'John Doe' }).getByText(HUDSON.name).waitFor();

    // Switch to John, then back.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Switch to John Doe' }).click();
    await page.waitForURL(/\/home/);
    await page.getByRole('heading', { name: 'John Doe' }).waitFor();
    await page.getByText(HUDSON.name).first().waitFor();
    await page.getByTestId('acting-as').getByText("Viewing John's account").waitFor();
    await screenshot(page, 'enrolment-desktop-13-switched-to-john');
    // The same on a phone (the app reloads when the width crosses 600 px).
    await page.setViewportSize(MOBILE);
    await page.getByRole('heading', { name: 'John Doe' }).waitFor();
    await screenshot(page, 'enrolment-mobile-08-switched-to-john');
    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'John Doe' }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Switch back to my account' }).click();
    await page.getByRole('heading', { name: 'Jane Doe' }).waitFor();

    // The family list (2.21): Jane's Self row opens the family-members menu, where it discloses
    // her summary with the way to her personal details; John's row opens his page. Each width
    // gets its own tab, sized before the app loads (a loaded app reloads when the width crosses
    // 600 px, which raced the next navigation).
    for (const [viewport, label] of [
      [DESKTOP, 'desktop-18'],
      [MOBILE, 'mobile-10'],
    ]) {
      const tab = await page.context().newPage();
      await tab.setViewportSize(viewport);
      await tab.goto(`${BASE_URL}/account/family-members/menu`);
      const selfName = /^Jane Doe\s*Primary Account Holder$/;
      const self = tab.getByRole('link', { name: selfName });
      assert((await self.getAttribute('aria-expanded')) === 'false', 'the Self row starts closed');
      await tab.getByRole('link', { name: /^John Doe\s*Spouse$/ }).waitFor();
      await self.click();
      await tab.waitForURL(/\/account\/family-members\/menu\?holder=open$/);
      // The address changes before React renders the open row, so wait for the row to say so.
      await tab.getByRole('link', { name: selfName, expanded: true }).waitFor();
      assert(await self.evaluate((element) => element === document.activeElement), 'focus stays on the Self row');
      const summary = tab.locator(`[id="${await self.getAttribute('aria-controls')}"]`);
      await summary.getByText(JANE.memberId).waitFor();
      await summary.getByText('Self', { exact: true }).waitFor();
      await tab.mouse.move(0, 0);
      await screenshot(tab, `enrolment-${label}-family-list-self-open`);
      await summary.getByRole('link', { name: 'View personal details' }).click();
      await tab.waitForURL(/\/account\/personal$/);
      await tab.getByRole('heading', { name: 'Jane Doe' }).waitFor();
      await tab.close();
    }

    // Remove John from the Family Members panel.
    await page.goto(`${BASE_URL}/account/details?panel=family`);
    await page.getByRole('button', { name: 'Delete John Doe' }).click();
    const confirm = page.getByRole('dialog', { name: 'Are you sure you want to remove this family member from your account?' });
    await confirm.getByText('This action cannot be undone.').waitFor();
    await screenshot(page, 'enrolment-desktop-14-remove-confirm');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    const removed = page.getByRole('dialog', { name: 'Family member removed' });
    await removed.getByText('John Doe has been removed from your account.').waitFor();
    await removed.getByRole('button', { name: 'Okay' }).click();
    await page.getByText('No family members on your account yet.').waitFor();
    const left = sql(`select count(*) from members where member_id = ${quote(JOHN.memberId)}`);
    assert(left === '0', `John's row is gone, got ${left}`);
  } finally {
    await browser.close();
  }
});

test('enrolment: a signed-in member whose account names no employer confirms one (desktop and phone)', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    for (const [viewport, label] of [
      [DESKTOP, 'desktop-17'],
      [MOBILE, 'mobile-09'],
    ]) {
      // Signed up with an employer the catalogue does not know: the account names none.
      const email = `e2e-no-employer-${label}-${Date.now()}@initech.example`;
      const response = await fetch(`${BASE_URL}/member/app/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, companyName: 'Initech Holdings', notify: true, terms_and_conditions: true }),
      });
      assert(response.ok, `sign-up answered ${response.status}`);
      const { accessToken } = await response.json();
      assert(accessToken, 'an access token');
      const { context, page } = await newPage(browser, viewport);
      await context.addCookies([{ name: 'token', value: accessToken, url: BASE_URL }]);
      await page.goto(`${BASE_URL}/marketplace`);
      const dialog = page.getByRole('dialog', { name: 'Employer Confirmation' });
      await dialog.waitFor();
      assert(await dialog.getByRole('button', { name: 'Confirm' }).isDisabled(), 'Confirm waits for an employer');
      await dialog.getByRole('button', { name: /Select your employer/ }).click();
      await dialog.getByPlaceholder('Search employer here').fill('Acme');
      await dialog.getByRole('option', { name: /^Acme Corporation/ }).click();
      await screenshot(page, `enrolment-${label}-employer-confirmation`);
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      const verified = page.getByRole('dialog', { name: 'Perfect!' });
      await verified.getByText('Acme Corporation is participating and will pay up to 100% of the benefit.').waitFor();
      await screenshot(page, `enrolment-${label}-employer-verified`);
      await verified.getByRole('button', { name: 'Find My Provider' }).click();
      const banner = await page.getByTestId('employer-banner').textContent();
      assert(banner.includes('Acme Corporation is participating'), `the marketplace's employer, got ${banner}`);
      // Answered once a visit: a reload does not ask again.
      await page.reload();
      await page.getByTestId('employer-banner').waitFor();
      assert((await page.getByRole('dialog', { name: 'Employer Confirmation' }).count()) === 0, 'not asked again');
      await context.close();
    }
  } finally {
    await browser.close();
  }
});
