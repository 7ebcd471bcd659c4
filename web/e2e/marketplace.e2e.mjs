// Browser tests of the marketplace against the real server (NEARCARE_URL).
import { assert, assertClearOfBottomBar, BASE_URL, DESKTOP, fillBox, launchBrowser, MOBILE, newPage, screenshot, test } from './harness.mjs';

async function chooseEmployer(page, name) {
  await page.getByRole('button', { name: /Select your employer/ }).first().click();
  await page.getByPlaceholder('Search employer here').fill(name.slice(0, 4));
  await page.getByRole('option', { name }).click();
  await page.getByTestId('employer-banner').waitFor();
  const banner = await page.getByTestId('employer-banner').textContent();
  assert(banner.includes('is participating and will pay up to 100% of the benefit'), `active employer banner, got: ${banner}`);
}

/**
 * Searching first opens the employer-needed prompt; an employer offering the benefit is confirmed
 * with 'Perfect! ... Find My Provider', which carries on with the search.
 */
async function chooseEmployerInPrompt(page, name, shot = null) {
  const dialog = page.getByRole('dialog', { name: 'Who is your employer?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: /Select your employer/ }).click();
  await dialog.getByPlaceholder('Search employer here').fill(name.slice(0, 4));
  await dialog.getByRole('option', { name }).click();
  const verified = page.getByRole('dialog', { name: 'Perfect!' });
  await verified.getByText(`${name} is participating and will pay up to 100% of the benefit.`).waitFor();
  if (shot) await screenshot(page, shot);
  await verified.getByRole('button', { name: 'Find My Provider' }).click();
  await page.getByTestId('employer-banner').waitFor();
}

async function searchAddress(page, address, { employerPrompt = null, shot = null } = {}) {
  const box = page.getByRole('combobox', { name: 'Address, city or ZIP code' });
  await fillBox(box, address);
  const suggestion = page.getByRole('option', { name: new RegExp(`^${address.split(',')[0]}`) }).first();
  try {
    await suggestion.waitFor({ timeout: 3000 });
    await suggestion.click();
  } catch {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  }
  if (employerPrompt) await chooseEmployerInPrompt(page, employerPrompt, shot);
  await page.getByTestId('result-card').first().waitFor({ timeout: 15_000 });
}

async function applyAcceptingFilter(page) {
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  await page.getByRole('heading', { name: 'Filter solutions' }).waitFor();
  await page.getByLabel('Only clinics accepting new patients').check();
  return async () => {
    await page.getByRole('button', { name: 'View results' }).click();
    await page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor();
    await waitForIdle(page);
  };
}

async function waitForIdle(page) {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 15_000 });
}

/** The zooms of the basemap tiles the page has fetched (county lines are in the tiles from zoom 7). */
async function basemapTileZooms(page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => /\/basemap\/[^/]+\/(\d+)\/\d+\/\d+\.json$/.exec(new URL(entry.name).pathname)?.[1])
      .filter(Boolean)
      .map(Number),
  );
}

async function clinicAvailabilities(page) {
  return page.locator('section[aria-label="Clinics"] [data-testid="result-card"] dd').filter({ hasText: /accepting new patients/i }).allTextContents();
}

async function run(viewport, label) {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, viewport);
    await page.goto(`${BASE_URL}/marketplace`);
    await page.getByRole('heading', { name: 'Advanced Primary Care powered by the provider' }).waitFor();
    assert((await page.title()) === 'Member - Marketplace', 'page title');
    await page.getByText('Choose from 1200+ clinics and 1000+ providers nationwide').waitFor();
    if (viewport.width >= 600) {
      // The welcome map shows area pins for the whole country.
      await page.locator('.nc-area').first().waitFor({ timeout: 15_000 });
      // The country view draws land and state outlines from a few country-wide tiles, without county lines.
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/basemap/')), null, { timeout: 15_000 });
      await page.waitForLoadState('networkidle');
      const zooms = await basemapTileZooms(page);
      assert(zooms.length > 0 && zooms.every((zoom) => zoom < 7), `only country tiles (no county lines) at country zoom, got zooms ${zooms.join(', ')}`);
    }
    await screenshot(page, `${label}-01-welcome`);

    if (viewport.width >= 600) {
      await chooseEmployer(page, 'Acme Corporation');
      await searchAddress(page, 'Denver, CO');
    } else {
      await searchAddress(page, 'Denver, CO', { employerPrompt: 'Acme Corporation', shot: `${label}-01b-employer-verified` });
    }
    await waitForIdle(page);
    if (viewport.width >= 600) {
      // A search zooms to city level, where the tiles under the view carry county lines.
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /\/basemap\/[^/]+\/(7|8)\//.test(entry.name)), null, { timeout: 15_000 });
    }
    await screenshot(page, `${label}-02-results`);
    if (viewport.width < 600) {
      // The View Map bar leaves room for the last card and the page footer.
      const bar = page.getByRole('button', { name: 'View Map' }).locator('..');
      await assertClearOfBottomBar(page, bar, [
        ['the last result card', page.getByTestId('result-card').last()],
        ['the page footer', page.getByRole('contentinfo')],
      ]);
      await screenshot(page, `${label}-02b-results-end`);
      await page.evaluate(() => window.scrollTo(0, 0));
    }

    const finishFilter = await applyAcceptingFilter(page);
    await screenshot(page, `${label}-03-filter-drawer`);
    await finishFilter();
    const availabilities = await clinicAvailabilities(page);
    assert(availabilities.length > 0, 'clinic cards after filtering');
    assert(availabilities.every((text) => text.trim() === 'Accepting new patients'), `only accepting clinics, got ${availabilities}`);

    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await page.locator('[aria-current="page"]', { hasText: '2' }).waitFor();
    await waitForIdle(page);
    await screenshot(page, `${label}-04-page-2`);
    const firstName = await page.locator('section[aria-label="Clinics"] [data-testid="result-card"]').first().getAttribute('aria-label');

    if (viewport.width < 600) {
      await page.getByRole('button', { name: 'View Map' }).click();
      await page.getByTestId('market-map').waitFor();
      assert((await page.getByTestId('result-card').count()) === 0, 'list hidden in map view');
      await page.locator('.nc-pin, .nc-area').first().waitFor({ timeout: 15_000 });
      await screenshot(page, `${label}-05-map-view`);
      await page.getByRole('button', { name: 'View List' }).click();
      await page.getByTestId('result-card').first().waitFor();
    } else {
      // A pin is a keyboard-reachable button with an accessible name; Enter opens its info window.
      const pin = page.locator('.nc-pin').first();
      await pin.waitFor({ timeout: 15_000 });
      const name = await pin.getAttribute('aria-label');
      assert(/accepting new patients/.test(name ?? ''), `pin accessible name, got ${name}`);
      await pin.focus();
      await page.keyboard.press('Enter');
      await page.locator('.leaflet-popup').getByRole('button', { name: 'View Details' }).waitFor({ timeout: 10_000 });
      await screenshot(page, `${label}-05-pin-preview`);
      await page.locator('.leaflet-popup-close-button').click();
    }

    await page.locator('section[aria-label="Clinics"] [data-testid="result-card"]').first().getByRole('button', { name: /^View details of / }).click();
    await page.waitForURL(/\/marketplace\/provider\/details\/\d+\?location=\d+/);
    await page.locator('#clinic-name').waitFor({ timeout: 15_000 });
    assert((await page.title()) === 'Member - Provider Details', 'profile title');
    const profileName = await page.locator('#clinic-name').textContent();
    assert(firstName && profileName && firstName.startsWith(profileName.slice(0, 10)) , `profile of the clicked card (${firstName} vs ${profileName})`);
    await screenshot(page, `${label}-06-clinic-profile`);
    // The fixed Select provider bar leaves room for the last section and the page footer.
    await assertClearOfBottomBar(page, page.getByTestId('clinic-footer'), [
      ['Search another location', page.getByRole('region', { name: 'Search another location' })],
      ['the page footer', page.getByRole('contentinfo')],
    ]);
    await screenshot(page, `${label}-06b-clinic-profile-end`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('tab', { name: 'Contact Information' }).click();
    await page.getByRole('region', { name: /Map showing/ }).scrollIntoViewIfNeeded();
    await screenshot(page, `${label}-07-clinic-contact`);

    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await page.waitForURL(/\/marketplace\?/);
    await page.getByTestId('result-card').first().waitFor();
    await page.locator('[aria-current="page"]', { hasText: '2' }).waitFor();
    await page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor();
    await screenshot(page, `${label}-08-back-to-results`);

    if (viewport.width >= 600) {
      // Moving the map offers Update Search; it keeps the filters and goes back to page 1.
      const map = page.getByTestId('market-map');
      await map.scrollIntoViewIfNeeded();
      const box = await map.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 - 120, box.y + box.height / 2 - 60, { steps: 8 });
      await page.mouse.up();
      const update = page.getByRole('button', { name: 'Update Search' });
      await update.waitFor({ timeout: 5000 });
      await screenshot(page, `${label}-09-update-search`);
      await update.click();
      await page.locator('[aria-current="page"]', { hasText: '1' }).waitFor();
      await page.getByRole('list', { name: 'Active filters' }).getByText('Accepting new patients').waitFor();
      await waitForIdle(page);

      // Zoomed out to a regional view (zoom 8): county lines under the state outlines, area pins.
      for (let step = 0; step < 4; step += 1) {
        await page.getByRole('button', { name: 'Zoom out' }).click();
        await page.waitForTimeout(350);
      }
      await page.locator('.nc-area').first().waitFor({ timeout: 15_000 });
      await waitForIdle(page);
      await screenshot(page, `${label}-14-map-county-lines`);
    } else {
      // Below 700 px a pin opens the clinic's details directly.
      await page.getByRole('button', { name: 'View Map' }).click();
      const pin = page.locator('.nc-pin').first();
      await pin.waitFor({ timeout: 15_000 });
      await pin.click();
      await page.waitForURL(/\/marketplace\/provider\/details\/\d+\?location=\d+/);
      await page.locator('#clinic-name').waitFor({ timeout: 15_000 });
    }
  } finally {
    await browser.close();
  }
}

test('desktop: employer, Denver search, accepting filter, page 2, clinic profile and back', () => run(DESKTOP, 'desktop'));
test('mobile: the same flow with the View Map / View List toggle', () => run(MOBILE, 'mobile'));

test('unknown paths go to the 404 page', async () => {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await page.goto(`${BASE_URL}/no/such/page`);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    assert(new URL(page.url()).pathname === '/404', 'redirected to /404');
  } finally {
    await browser.close();
  }
});
