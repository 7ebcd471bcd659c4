// Browser tests of issue 15, part A: member journeys as a person meets them. Switching into a
// family member's account and back, shared marketplace links and the search kept in the URL, the
// map answering the list's filters, Update My Provider restoring a search, and the phone map's
// clusters. Members are made through the API (sign-up answers a token), so these tests use no
// roster member and run on any database the server can write to.
import { api, appStarted, assert, BASE_URL, DESKTOP, fillBox, launchBrowser, MOBILE, newPage, screenshot, test } from './harness.mjs';

const ACME = { id: 1, name: 'Acme Corporation', alias: 'acme' };
/** Hudson Family Health, Chelsea (ZIP 10001), and its second clinic (Murray Hill): crates/seed/src/demo.rs. */
const HUDSON = { id: 3, chelsea: 5, name: 'Hudson Family Health' };
const LODO = 1;
const PINS_PATH = '/member/app/market/location/pins';
const AREA_PINS_PATH = '/member/app/market/location/areapins';

/** A new Acme subscriber, signed up through the API: their email and access token. */
async function newSubscriber(firstName, lastName) {
  const email = `e2e-journeys-a-${firstName.toLowerCase()}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@acme.example`;
  const answer = await api('/member/app/signup', { method: 'POST', body: { email, employerId: ACME.id, companyName: ACME.name, firstName, lastName, terms_and_conditions: true } });
  assert(answer.accessToken, `sign-up answered a token, got ${JSON.stringify(answer)}`);
  return { email, token: answer.accessToken, firstName, lastName };
}

/** A browser page signed in with `token` (the SPA's token cookie). */
async function signedInPage(browser, viewport, token) {
  const opened = await newPage(browser, viewport);
  await opened.context.addCookies([{ name: 'token', value: token, url: BASE_URL }]);
  return opened;
}

const addressBox = (page) => page.getByRole('combobox', { name: 'Address, city or ZIP code' });
const locationCard = (page, locationId) => page.locator(`[data-testid="result-card"][data-location-id="${locationId}"][data-entity="location"]`);
const employerPrompt = (page) => page.getByRole('dialog', { name: 'Who is your employer?' });

async function waitForIdle(page) {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 15_000 });
}

async function assertNoEmployerPrompt(page, when) {
  // Give a late prompt the time it would take to open.
  await page.waitForTimeout(500);
  assert((await employerPrompt(page).count()) === 0, `no 'Who is your employer?' prompt ${when}`);
  assert((await page.getByRole('dialog', { name: 'Employer Confirmation' }).count()) === 0, `no Employer Confirmation ${when}`);
}

const params = (page) => new URL(page.url()).searchParams;

// ---- 1. Switching into a family member's account and back ----------------------------------------

test("journeys-a: switching into a family member's account and back lands on Home each time, with no refused call", async () => {
  const subscriber = await newSubscriber('Casey', 'Journey');
  const robin = await api('/member/app/family/member', {
    token: subscriber.token,
    method: 'POST',
    body: { subscriberRelation: 'Dependent', firstName: 'Robin', lastName: 'Journey', dob: '2012-05-04', gender: 'f', useMyContact: true, memberId: '990-000111' },
  });
  const browser = await launchBrowser();
  try {
    for (const [viewport, label] of [
      [DESKTOP, 'desktop'],
      [MOBILE, 'mobile'],
    ]) {
      const { page } = await signedInPage(browser, viewport, subscriber.token);
      const refused = [];
      page.on('response', (response) => {
        if (response.status() === 403 || response.status() === 401) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
      });
      // Switch from the family panel (its family list is on screen and must not be asked again as Robin).
      await page.goto(`${BASE_URL}/account/details?panel=family`);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Switch to Robin Journey' }).click();
      await page.waitForURL(/\/home$/);
      await page.getByRole('heading', { name: 'Robin Journey' }).waitFor();
      await page.getByTestId('acting-as').waitFor();
      await screenshot(page, `journeys-a-${label}-01-switched-to-family-member`);
      // Home gives up after 3 seconds of loading; a member who reads Home longer still switches back.
      await page.waitForTimeout(3500);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('group', { name: 'Account' }).getByRole('button', { name: 'Switch back to my account' }).click();
      await page.getByRole('heading', { name: 'Casey Journey' }).waitFor();
      await page.waitForTimeout(3500);
      assert(new URL(page.url()).pathname === '/home', `back on Home as the subscriber, got ${page.url()}`);
      assert((await page.getByText('Sorry, something went wrong while fetching your information.').count()) === 0, 'no fetch failure message');
      assert((await page.getByTestId('acting-as').count()) === 0, 'no longer acting as the family member');
      await screenshot(page, `journeys-a-${label}-02-switched-back`);
      assert(refused.length === 0, `no call refused while switching to member ${robin.id} and back, got ${refused.join(', ')}`);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});

// ---- 2. Shared links and the search in the URL ---------------------------------------------------

test('journeys-a: a shared link with company and location opens the search it names (signed out and in), and its state lives in the URL', async () => {
  const member = await newSubscriber('Morgan', 'Linked');
  const browser = await launchBrowser();
  try {
    // Signed out, nothing stored: the link alone names the employer and the place.
    const { page } = await newPage(browser, DESKTOP);
    await page.goto(`${BASE_URL}/marketplace?company=${ACME.alias}&location=80202`);
    await locationCard(page, LODO).waitFor({ timeout: 15_000 });
    await appStarted(page);
    assert((await page.getByTestId('employer-banner').textContent()).includes(`${ACME.name} is participating`), 'the Acme banner');
    await assertNoEmployerPrompt(page, 'for a link naming the company');
    assert((await addressBox(page).inputValue()) === '80202', `the address box shows the linked place, got '${await addressBox(page).inputValue()}'`);
    assert(params(page).get('lat') && params(page).get('lng'), `the coordinates join the URL, got ${page.url()}`);
    await screenshot(page, 'journeys-a-desktop-03-shared-link');

    // Filters, page and tab go into the URL, one history entry each.
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByLabel('Only clinics accepting new patients').check();
    await page.getByRole('button', { name: 'View results' }).click();
    await page.waitForURL(/newPatients=1/);
    await waitForIdle(page);
    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.waitForURL(/[?&]page=2/);
    await waitForIdle(page);
    await page.getByRole('tab', { name: /Clinics/ }).click();
    await page.waitForURL(/tab=clinics/);
    const shared = page.url();

    // A reload restores all of it (the server paints it; then the app's own).
    await page.reload();
    await appStarted(page);
    await page.getByRole('tab', { name: /Clinics/, selected: true }).waitFor();
    await page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor();
    await page.locator('[aria-current="page"]', { hasText: '2' }).waitFor();
    assert((await addressBox(page).inputValue()) === '80202', 'the address after a reload');
    await screenshot(page, 'journeys-a-desktop-04-reloaded');

    // Back walks the search back: the tab, then the page, then the filter.
    await page.goBack();
    await page.getByRole('tab', { name: /All/, selected: true }).waitFor();
    await page.locator('[aria-current="page"]', { hasText: '2' }).waitFor();
    await page.goBack();
    await page.locator('[aria-current="page"]', { hasText: '1' }).waitFor();
    await page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor();
    await page.goBack();
    await page.waitForFunction(() => !new URL(location.href).searchParams.has('newPatients'));
    await page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor({ state: 'detached' });

    // The shared link opens the same search in another browser, signed in this time.
    const other = await signedInPage(browser, DESKTOP, member.token);
    await other.page.goto(shared);
    await other.page.getByRole('tab', { name: /Clinics/, selected: true }).waitFor({ timeout: 15_000 });
    await other.page.locator('[aria-current="page"]', { hasText: '2' }).waitFor();
    await other.page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor();
    await assertNoEmployerPrompt(other.page, 'signed in, for a link naming the company');
    await other.context.close();

    // Signed in, the link without coordinates: the same search, no prompt.
    const linked = await signedInPage(browser, DESKTOP, member.token);
    await linked.page.goto(`${BASE_URL}/marketplace?company=${ACME.alias}&location=80202`);
    await locationCard(linked.page, LODO).waitFor({ timeout: 15_000 });
    await assertNoEmployerPrompt(linked.page, 'signed in');
    assert((await addressBox(linked.page).inputValue()) === '80202', 'signed in: the address box shows the linked place');
    await linked.context.close();

    // On a phone the map view is part of the URL too.
    const phone = await newPage(browser, MOBILE);
    await phone.page.goto(`${BASE_URL}/marketplace?company=${ACME.alias}&location=80202`);
    await locationCard(phone.page, LODO).waitFor({ timeout: 15_000 });
    await appStarted(phone.page);
    await assertNoEmployerPrompt(phone.page, 'on a phone');
    await screenshot(phone.page, 'journeys-a-mobile-03-shared-link');
    await phone.page.getByRole('button', { name: 'View Map' }).click();
    await phone.page.waitForURL(/view=map/);
    await phone.page.reload();
    await phone.page.getByTestId('market-map').waitFor();
    await phone.page.getByRole('button', { name: 'View List' }).waitFor();
    await phone.page.goBack();
    await phone.page.getByRole('button', { name: 'View Map' }).waitFor();
    await phone.context.close();
  } finally {
    await browser.close();
  }
});

// ---- 3. The map answers the list's filters -----------------------------------------------------

/** Whether the server says its pin calls read the search's filters (the `filters` parameter). */
async function serverReadsPinFilters() {
  const document = await api('/openapi.json');
  const declared = (path) => (document.paths?.[path]?.get?.parameters ?? []).some((parameter) => parameter.name === 'filters');
  return declared(PINS_PATH) && declared(AREA_PINS_PATH);
}

/** The clinics the map shows: single pins by name, plus the counts of clusters and area pins. */
async function mapClinics(page) {
  const labels = await page.locator('[data-testid="market-map"] .leaflet-marker-pane [aria-label]').evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')));
  let total = 0;
  const names = [];
  for (const label of labels) {
    const counted = /^(\d+) clinics (here|in this area)/.exec(label);
    if (counted) total += Number(counted[1]);
    else {
      total += 1;
      names.push(label.split(',')[0]);
    }
  }
  return { total, names, labels };
}

test("journeys-a: the map's pins answer the list's filters (name, organisation, gender, no results)", async () => {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    const pinRequests = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === PINS_PATH || url.pathname === AREA_PINS_PATH) pinRequests.push(url);
    });
    // Failures are kept for the assertions below (an unawaited rejection would end the run).
    const named = page
      .waitForResponse((response) => {
        const url = new URL(response.url());
        return url.pathname === PINS_PATH && (url.searchParams.get('filters') ?? '').includes('"searchByName":"Hudson"');
      })
      .catch((error) => error);
    await page.goto(`${BASE_URL}/marketplace?company=${ACME.alias}&location=10001&name=Hudson`);
    await locationCard(page, HUDSON.chelsea).waitFor({ timeout: 15_000 });
    await waitForIdle(page);
    const listed = await page.locator('section[aria-label="Clinics"] [data-testid="result-card"][data-entity="location"]').count();
    assert(listed === 2, `the list keeps Hudson's two clinics, got ${listed}`);

    // The client half: the pin calls carry the search's whole question, as the search sends it.
    const pinsAnswer = await named;
    assert(!(pinsAnswer instanceof Error), `a pins call carrying the name filter (${pinsAnswer.message ?? ''})`);
    const sent = new URL(pinsAnswer.url());
    const filters = JSON.parse(sent.searchParams.get('filters'));
    assert(filters.searchByName === 'Hudson' && filters.employer === ACME.name && filters.searchDistance === 5, `search.filters in the pins call, got ${JSON.stringify(filters)}`);
    assert(sent.searchParams.get('lat') && sent.searchParams.get('lng') && sent.searchParams.get('company') === ACME.alias, `origin and company in the pins call, got ${sent}`);
    const withGender = page
      .waitForRequest((request) => new URL(request.url()).pathname === PINS_PATH && (new URL(request.url()).searchParams.get('filters') ?? '').includes('"selectedGenders":["F"]'))
      .catch((error) => error);
    await page.goto(`${BASE_URL}/marketplace?company=${ACME.alias}&location=10001&name=Hudson&gender=F&org=${encodeURIComponent(HUDSON.name)}`);
    const genderRequest = await withGender;
    assert(!(genderRequest instanceof Error), `a pins call carrying the gender filter (${genderRequest.message ?? ''})`);
    const genderFilters = JSON.parse(new URL(genderRequest.url()).searchParams.get('filters'));
    assert(genderFilters.selectedGroupAndOrganizations[0] === HUDSON.name, `organisations in the pins call, got ${JSON.stringify(genderFilters)}`);
    assert(pinRequests.length > 0, 'the map asked for pins');

    // The server half: the pin calls read `filters`, so the map shows what the list shows.
    assert(await serverReadsPinFilters(), `the server declares a 'filters' parameter on ${PINS_PATH} and ${AREA_PINS_PATH} in /openapi.json`);
    await page.goto(`${BASE_URL}/marketplace?company=${ACME.alias}&location=10001&name=Hudson`);
    await locationCard(page, HUDSON.chelsea).waitFor({ timeout: 15_000 });
    await waitForIdle(page);
    await page.waitForFunction(() => !document.querySelector('[data-testid="market-map"] ~ [role="status"]'));
    const shown = await mapClinics(page);
    assert(shown.total === 2, `the map shows the list's two clinics, got ${shown.total}: ${shown.labels.join(' | ')}`);
    assert(shown.names.every((name) => name.includes('Hudson')), `only Hudson pins, got ${shown.names.join(', ')}`);

    await page.goto(`${BASE_URL}/marketplace?company=${ACME.alias}&location=10001&name=zzzz-no-such-clinic`);
    await page.getByText('No results found!').waitFor({ timeout: 15_000 });
    await page.waitForTimeout(1000);
    const none = await mapClinics(page);
    assert(none.total === 0, `no results: no pins, got ${none.total}: ${none.labels.join(' | ')}`);
  } finally {
    await browser.close();
  }
});

// ---- 9. Update My Provider -----------------------------------------------------------------------

test('journeys-a: Update My Provider opens the last search, else the home ZIP code', async () => {
  const member = await newSubscriber('Jordan', 'Updating');
  await api('/member/app/set/provider', { token: member.token, method: 'POST', body: { providerId: HUDSON.id, locationId: HUDSON.chelsea } });
  const browser = await launchBrowser();
  try {
    for (const [viewport, label] of [
      [DESKTOP, 'desktop'],
      [MOBILE, 'mobile'],
    ]) {
      const { page, context } = await signedInPage(browser, viewport, member.token);
      // No search yet: the member's home ZIP code (here their clinic's, 10001).
      await page.goto(`${BASE_URL}/home`);
      await page.getByRole('button', { name: 'Update My Provider' }).click();
      await page.waitForURL(/\/marketplace/);
      await locationCard(page, HUDSON.chelsea).waitFor({ timeout: 15_000 });
      assert((await addressBox(page).inputValue()) === '10001', `the home ZIP code in the address box, got '${await addressBox(page).inputValue()}'`);
      await screenshot(page, `journeys-a-${label}-05-update-provider-home-zip`);

      // After a search of their own, Update My Provider comes back to it.
      await page.goto(`${BASE_URL}/marketplace?location=80202&newPatients=1`);
      await locationCard(page, LODO).waitFor({ timeout: 15_000 });
      await page.goto(`${BASE_URL}/home`);
      await page.getByRole('button', { name: 'Update My Provider' }).click();
      await page.waitForURL(/\/marketplace/);
      await locationCard(page, LODO).waitFor({ timeout: 15_000 });
      assert((await addressBox(page).inputValue()) === '80202', 'the last search in the address box');
      assert(params(page).get('newPatients') === '1' && params(page).has('selectProvider'), `the last search's filters, got ${page.url()}`);
      await page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor();
      await screenshot(page, `journeys-a-${label}-06-update-provider-last-search`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});

// ---- 11. The phone map ---------------------------------------------------------------------------

/** Boxes of the map's markers (pins and clusters) and of 'You are here' with its label. */
async function markerBoxes(page) {
  return page.evaluate(() => {
    const box = (element) => {
      const rect = element.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    };
    const markers = [...document.querySelectorAll('[data-testid="market-map"] .leaflet-marker-pane [aria-label]')].map((element) => ({
      label: element.getAttribute('aria-label'),
      ...box(element),
    }));
    const here = document.querySelector('[data-testid="market-map"] .nc-here');
    const hereLabel = document.querySelector('[data-testid="market-map"] .nc-here-label');
    const zIndex = (element) => Number(getComputedStyle(element.closest('.leaflet-pane')).zIndex);
    const markerPane = document.querySelector('[data-testid="market-map"] .leaflet-marker-pane');
    return {
      markers,
      here: here && { ...box(here), zIndex: zIndex(here) },
      hereLabel: hereLabel && { zIndex: zIndex(hereLabel) },
      markerZ: markerPane ? Number(getComputedStyle(markerPane).zIndex) : null,
    };
  });
}

test('journeys-a: the phone map clusters overlapping pins, never shows a cluster of one, and keeps You are here under the pins', async () => {
  const browser = await launchBrowser();
  try {
    for (const [viewport, label] of [
      [MOBILE, 'mobile'],
      [DESKTOP, 'desktop'],
    ]) {
      const { page, context } = await newPage(browser, viewport);
      // Typed as a member would (not a link): employer, ZIP code, then the map.
      await page.goto(`${BASE_URL}/marketplace`);
      await page.getByRole('button', { name: /Select your employer/ }).first().click();
      await page.getByPlaceholder('Search employer here').fill(ACME.name.slice(0, 4));
      await page.getByRole('option', { name: ACME.name }).click();
      await fillBox(addressBox(page), '10001');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await locationCard(page, HUDSON.chelsea).waitFor({ timeout: 15_000 });
      if (viewport === MOBILE) await page.getByRole('button', { name: 'View Map' }).click();
      await page.locator('[data-testid="market-map"] .nc-here').waitFor({ timeout: 15_000 });
      await page.locator('[data-testid="market-map"] .leaflet-marker-pane [aria-label]').first().waitFor({ timeout: 15_000 });
      await page.waitForTimeout(800);
      const before = await markerBoxes(page);
      await screenshot(page, `journeys-a-${label}-07-map-10001`);

      const clusters = before.markers.filter((marker) => /clinics here, zoom in$/.test(marker.label));
      assert(clusters.length > 0, `overlapping pins are clustered at 10001, got ${before.markers.map((marker) => marker.label).join(' | ')}`);
      assert(!before.markers.some((marker) => /^1 clinic/.test(marker.label)), 'no cluster of one');
      // No two markers pile up: their boxes overlap by a few pixels at most.
      const markers = before.markers;
      for (let i = 0; i < markers.length; i += 1) {
        for (let j = i + 1; j < markers.length; j += 1) {
          const [a, b] = [markers[i], markers[j]];
          const overlapX = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
          const overlapY = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
          const shared = Math.max(0, overlapX) * Math.max(0, overlapY);
          const smaller = Math.min(a.width * a.height, b.width * b.height);
          assert(shared <= 0.12 * smaller, `markers '${a.label}' and '${b.label}' cover each other (${Math.round((100 * shared) / smaller)}% of the smaller)`);
        }
      }
      assert(before.here && before.hereLabel, "'You are here' and its label are drawn");
      assert(before.here.zIndex < before.markerZ && before.hereLabel.zIndex < before.markerZ, `'You are here' (z ${before.here.zIndex}, label z ${before.hereLabel.zIndex}) lies under the pins (z ${before.markerZ})`);

      // Pressing a cluster zooms in until its clinics separate.
      const biggest = clusters.sort((a, b) => Number(/^\d+/.exec(b.label)[0]) - Number(/^\d+/.exec(a.label)[0]))[0];
      await page.locator(`[data-testid="market-map"] .leaflet-marker-pane [aria-label="${biggest.label}"]`).first().click();
      await page.waitForTimeout(1200);
      await waitForIdle(page);
      const after = await markerBoxes(page);
      const count = (marker) => Number(/^(\d+) clinics/.exec(marker.label)?.[1] ?? 1);
      const biggestCount = count(biggest);
      assert(after.markers.length >= 2 && after.markers.every((marker) => count(marker) < biggestCount), `zooming into '${biggest.label}' separates its clinics, got ${after.markers.map((marker) => marker.label).join(' | ')}`);
      assert(!after.markers.some((marker) => /^1 clinic/.test(marker.label)), 'no cluster of one after zooming in');
      await screenshot(page, `journeys-a-${label}-08-map-zoomed-into-cluster`);
      await context.close();
    }
  } finally {
    await browser.close();
  }
});
