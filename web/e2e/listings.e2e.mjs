// Browser test of the listings a clinic keeps true itself (issue 23, docs/listings-contract.md)
// against the real server (NEARCARE_URL): a provider of the demo organisation (Front Range Direct
// Primary Care, invited with the indexer CLI) opens /dpc-providers/listings, edits the Denver
// location's opening hours, adds a language and stops, then resumes, accepting new patients; a
// member's search filtered by that language (the filter drawer, then the shared link) finds the
// clinic, whose profile shows the new hours, Open now or Closed now, the language and "Listing
// verified by the clinic on" today. Screenshots at 1280x800 and 390x844.
//
// Needs E2E_DATABASE_URL and E2E_MAIL_DIR, as provider.e2e.mjs.
import { appStarted, assert, BASE_URL, DESKTOP, indexer, launchBrowser, local, logIn, MOBILE, newPage, outboxLink, requireDatabase, screenshot, sql, test } from './harness.mjs';

const PASSWORD = 'Nearcare-listings-1';
/** The demo organisation and its Denver location (crates/seed/src/demo.rs). */
const ORGANISATION = 1;
const LANGUAGE = 'Icelandic';

/** Today as the app writes dates: MM/DD/YYYY (UTC). */
function today() {
  const now = new Date();
  const two = (n) => String(n).padStart(2, '0');
  return `${two(now.getUTCMonth() + 1)}/${two(now.getUTCDate())}/${now.getUTCFullYear()}`;
}

async function signUpProvider(page) {
  const email = `e2e-listings-${Date.now()}@frontrange.example`;
  indexer('providers', 'invite', '--organisation', String(ORGANISATION), '--email', email, '--first-name', 'Lee', '--last-name', 'Listings');
  const invitation = await outboxLink(email);
  await page.goto(local(invitation));
  await page.getByLabel('New Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm New Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: /Set password|Reset password/ }).click();
  await page.getByRole('button', { name: 'Continue to Login' }).click();
  await page.waitForURL(/\/login/);
  await logIn(page, email, PASSWORD);
  await page.waitForURL(/\/dpc-providers\/solutions$/);
  return email;
}

/** The Denver demo location's card on the listings page. */
function denverCard(page, locationId) {
  return page.locator(`[data-testid="listing-location"][data-location-id="${locationId}"]`);
}

test('listings: the demo provider edits hours, a language and new patients; a member filtering by that language finds the clinic, its new hours and today\'s verification', async () => {
  requireDatabase();
  const locationId = Number(sql(`select id from locations where organisation_id = ${ORGANISATION} order by id limit 1`));
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await signUpProvider(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Listings' }).click();
    await page.waitForURL(/\/dpc-providers\/listings$/);
    await page.getByRole('heading', { name: 'Your listings' }).waitFor();
    const card = denverCard(page, locationId);
    await card.waitFor();
    await screenshot(page, 'listings-desktop-01-page');

    // Edit: Monday 7 AM to 7 PM with a lunch break is two ranges; Sunday stays closed.
    await card.getByRole('button', { name: /^Edit / }).click();
    const form = card.getByRole('form');
    await form.waitFor();
    const removeHours = form.getByRole('button', { name: 'Remove all hours' });
    if (await removeHours.isVisible()) await removeHours.click();
    const addHours = form.getByRole('button', { name: 'Add opening hours' });
    if (await addHours.isVisible()) await addHours.click();
    const monday = form.getByTestId('hours-mon');
    await monday.getByRole('button', { name: 'Add hours on Monday' }).click();
    await monday.getByLabel('Monday opens').first().fill('07:00');
    await monday.getByLabel('Monday closes').first().fill('12:00');
    await monday.getByRole('button', { name: 'Add hours on Monday' }).click();
    await monday.getByLabel('Monday opens').nth(1).fill('13:00');
    await monday.getByLabel('Monday closes').nth(1).fill('19:00');
    const tuesday = form.getByTestId('hours-tue');
    await tuesday.getByRole('button', { name: 'Add hours on Tuesday' }).click();
    await form.getByRole('searchbox', { name: 'Search languages' }).fill('Icel');
    await form.getByLabel(LANGUAGE).check();
    await form.getByLabel('Accepting new patients').uncheck();
    await screenshot(page, 'listings-desktop-02-editing');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').getByText(/^Saved /).waitFor();
    await card.getByText('Not accepting new patients').waitFor();
    await card.getByText(`Confirmed ${today()}`).waitFor();
    const stored = sql(`select accepting_new_patients, languages::text, hours->'mon' from locations where id = ${locationId}`);
    assert(stored.startsWith('f|') && stored.includes('is'), `the edit is stored: ${stored}`);
    assert(stored.includes('"07:00"') && stored.includes('"19:00"'), `Monday's hours are stored: ${stored}`);

    // Accepting new patients again.
    await card.getByRole('button', { name: /^Edit / }).click();
    await card.getByRole('form').getByLabel('Accepting new patients').check();
    await card.getByRole('form').getByRole('button', { name: 'Save changes' }).click();
    await card.getByText('Accepting new patients', { exact: true }).waitFor();
    const audit = sql(`select string_agg(field, ',' order by id) from listing_edits where entity = 'location' and entity_id = ${locationId}`);
    for (const field of ['hours', 'languages', 'acceptingNewPatients', 'lastVerified']) assert(audit.includes(field), `audit rows name ${field}: ${audit}`);
    await screenshot(page, 'listings-desktop-03-saved');

    // "Everything is correct".
    await page.getByRole('button', { name: 'Everything is correct' }).click();
    await page.getByRole('status').getByText('Thank you: every listing is confirmed as of today.').waitFor();
    await page.getByText('Every listing is confirmed', { exact: true }).waitFor();

    // A member's search, filtered by that language in the drawer.
    const member = await newPage(browser, DESKTOP);
    const shopper = member.page;
    await shopper.goto(`${BASE_URL}/marketplace?company=acme&location=80202`);
    await shopper.getByTestId('result-card').first().waitFor({ timeout: 15_000 });
    await appStarted(shopper);
    await shopper.getByRole('button', { name: 'Filter', exact: true }).click();
    await shopper.getByRole('heading', { name: 'Filter solutions' }).waitFor();
    const languages = shopper.getByRole('group', { name: 'Languages spoken' });
    await languages.getByRole('searchbox', { name: 'Search languages' }).fill('Icel');
    await languages.getByLabel(LANGUAGE).check();
    await screenshot(shopper, 'listings-desktop-04-filter-drawer');
    await shopper.getByRole('button', { name: 'View results' }).click();
    await shopper.getByRole('list', { name: 'Active filters' }).getByText(`Speaks ${LANGUAGE}`).waitFor();
    await shopper.waitForURL(/language=is/);
    const clinic = shopper.locator(`section[aria-label="Clinics"] [data-testid="result-card"][data-location-id="${locationId}"]`);
    await clinic.waitFor({ timeout: 15_000 });
    const cards = await shopper.locator('section[aria-label="Clinics"] [data-testid="result-card"]').count();
    assert(cards === 1, `only the clinic speaking ${LANGUAGE} is listed, got ${cards}`);
    assert((await clinic.getByTestId('not-verified').count()) === 0, 'a listing confirmed today is not "Not verified recently"');
    await screenshot(shopper, 'listings-desktop-05-results');

    // Its profile: the new hours, open now or closed now, the language, verified today.
    await clinic.getByRole('button', { name: /^View details of/ }).click();
    await shopper.getByTestId('verified-on').waitFor();
    const verified = await shopper.getByTestId('verified-on').innerText();
    assert(verified === `Listing verified by the clinic on ${today()}`, `verified today, got '${verified}'`);
    const openNow = await shopper.getByTestId('open-now').innerText();
    assert(openNow === 'Open now' || openNow === 'Closed now', `open or closed now, got '${openNow}'`);
    const hours = await shopper.getByTestId('opening-hours').innerText();
    assert(/Monday\s+7:00 AM – 12:00 PM, 1:00 PM – 7:00 PM/.test(hours), `Monday's hours, got '${hours}'`);
    assert(/Tuesday\s+9:00 AM – 5:00 PM/.test(hours), `Tuesday's hours, got '${hours}'`);
    assert(/Sunday\s+Closed/.test(hours), `Sunday closed, got '${hours}'`);
    assert((await shopper.getByTestId('languages').innerText()).includes(LANGUAGE), 'the profile names the language');
    await screenshot(shopper, 'listings-desktop-06-profile');

    // The shared link restores the filter, on a phone.
    const phone = await newPage(browser, MOBILE);
    await phone.page.goto(`${BASE_URL}/marketplace?company=acme&location=80202&language=is`);
    await phone.page.locator(`[data-testid="result-card"][data-location-id="${locationId}"]`).first().waitFor({ timeout: 15_000 });
    await phone.page.getByRole('list', { name: 'Active filters' }).getByText(`Speaks ${LANGUAGE}`).waitFor();
    await screenshot(phone.page, 'listings-mobile-01-results');
    await phone.page.goto(`${BASE_URL}/marketplace/provider/details/${ORGANISATION}?location=${locationId}`);
    await phone.page.getByTestId('verified-on').waitFor();
    await screenshot(phone.page, 'listings-mobile-02-profile');
    await phone.page.getByTestId('opening-hours').scrollIntoViewIfNeeded();
    await screenshot(phone.page, 'listings-mobile-03-profile-hours');

    // The provider's page on a phone.
    const portal = await newPage(browser, MOBILE);
    await portal.context.addCookies(await page.context().cookies());
    await portal.page.goto(`${BASE_URL}/dpc-providers/listings`);
    await portal.page.getByRole('heading', { name: 'Your listings' }).waitFor();
    await screenshot(portal.page, 'listings-mobile-04-page');
    await denverCard(portal.page, locationId).getByRole('button', { name: /^Edit / }).click();
    await denverCard(portal.page, locationId).getByTestId('hours-mon').scrollIntoViewIfNeeded();
    await screenshot(portal.page, 'listings-mobile-05-editing');
  } finally {
    await browser.close();
  }
});
