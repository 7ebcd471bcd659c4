// Browser tests of issue 26's walk defects: each fails against the code before its fix. Signed-in
// ones register their own member (E2E_DATABASE_URL, E2E_MAIL_DIR).
import { appStarted, assert, BASE_URL, DESKTOP, launchBrowser, MOBILE, newPage, quote, requireDatabase, screenshot, sql, test } from './harness.mjs';
import { registerMember } from './journeys-b.e2e.mjs';

const addressBox = (page) => page.getByRole('combobox', { name: 'Address, city or ZIP code' });

async function waitForIdle(page) {
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 15_000 });
}

/** Drags the map by (dx, dy) pixels from its centre. */
async function dragMap(page, dx, dy) {
  const box = await page.getByTestId('market-map').boundingBox();
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 10 });
  await page.mouse.up();
}

test('walk 12: Update Search over open water stands on the nearest ZIP: no 404, You are here on land', async () => {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    const geocodes = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/member/app/market/locations/geocode')) geocodes.push(response.status());
    });
    await page.goto(`${BASE_URL}/marketplace?company=acme&location=${encodeURIComponent('San Juan, PR')}`);
    await page.getByTestId('result-card').first().waitFor({ timeout: 15_000 });
    await appStarted(page);
    await waitForIdle(page);
    // Out to a regional view, then north over the Atlantic, far from any ZIP.
    for (let step = 0; step < 5; step += 1) {
      await page.getByRole('button', { name: 'Zoom out' }).click();
      await page.waitForTimeout(400);
    }
    await dragMap(page, 0, 330);
    const update = page.getByRole('button', { name: 'Update Search' });
    await update.waitFor({ timeout: 5000 });
    geocodes.length = 0;
    // The centre's place is asked at once; the link already names a place in PR, so the URL alone
    // does not tell that the answer has come.
    const reverse = page.waitForResponse((response) => response.url().endsWith('/member/app/market/locations/geocode'));
    await update.click();
    await reverse;
    await page.waitForFunction(() => new URL(location.href).searchParams.get('location')?.includes('PR'), null, { timeout: 15_000 });
    await waitForIdle(page);
    const lat = Number(new URL(page.url()).searchParams.get('lat'));
    assert(geocodes.length > 0 && geocodes.every((status) => status === 200), `the map centre was geocoded without a 404, got ${geocodes.join(', ')}`);
    assert(lat > 17.8 && lat < 18.6, `the search stands on Puerto Rico, not at sea (lat ${lat})`);
    await page.getByText('You are here').waitFor();
    await screenshot(page, 'walk-desktop-12-update-search-over-water');
  } finally {
    await browser.close();
  }
});


test('walk 1: a link copied after choosing the employer in the select opens with that employer', async () => {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, DESKTOP);
    await page.goto(`${BASE_URL}/marketplace`);
    await page.getByRole('button', { name: /Select your employer/ }).first().click();
    await page.getByPlaceholder('Search employer here').fill('Acme');
    await page.getByRole('option', { name: 'Acme Corporation' }).click();
    await page.getByTestId('employer-banner').waitFor();
    await addressBox(page).fill('80202');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('result-card').first().waitFor({ timeout: 15_000 });
    const shared = page.url();
    assert(new URL(shared).searchParams.get('employer') === 'Acme Corporation', `the employer is in the link, got ${shared}`);

    // Opened in another browser: no question, the same employer and results.
    const elsewhere = await newPage(browser, MOBILE);
    await elsewhere.page.goto(shared);
    await elsewhere.page.getByTestId('result-card').first().waitFor({ timeout: 15_000 });
    const banner = await elsewhere.page.getByTestId('employer-banner').textContent();
    assert(banner.includes('Acme Corporation'), `the banner names the linked employer, got ${banner}`);
    assert((await elsewhere.page.getByRole('dialog', { name: 'Who is your employer?' }).count()) === 0, 'no employer question');
    // The results' tabs, counts shown, keep to one row at 390 px (they wrapped "Providers 14").
    const resultTabs = elsewhere.page.getByRole('tablist', { name: 'Result types' });
    const rows = await resultTabs.evaluate((list) => [...list.querySelectorAll('[role="tab"]')].map((tab) => `${tab.textContent}@${Math.round(tab.getBoundingClientRect().top)}`));
    assert(new Set(rows.map((row) => row.split('@')[1])).size === 1, `the result tabs share one row, got ${rows.join(', ')}`);
    await screenshot(elsewhere.page, 'walk-mobile-01-shared-link-employer');
  } finally {
    await browser.close();
  }
});

test('walk 14: on a phone every clinic profile tab shows whole, and Update Search stays on one line', async () => {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, MOBILE);
    await page.goto(`${BASE_URL}/marketplace/provider/details/1?location=1`);
    await page.locator('#clinic-name').waitFor({ timeout: 15_000 });
    const tabs = await page.getByRole('tablist').first().evaluate((list) => {
      const box = list.getBoundingClientRect();
      return [...list.querySelectorAll('[role="tab"]')].map((tab) => {
        const rect = tab.getBoundingClientRect();
        return { name: tab.textContent, inside: rect.left >= box.left - 0.5 && rect.right <= box.right + 0.5 && rect.right <= window.innerWidth };
      });
    });
    assert(tabs.length === 4 && tabs.every((tab) => tab.inside), `every tab within the strip and the screen, got ${JSON.stringify(tabs)}`);
    await screenshot(page, 'walk-mobile-14-clinic-profile-tabs');

    await page.goto(`${BASE_URL}/marketplace?company=acme&location=80202&view=map`);
    await page.locator('.nc-pin, .nc-area').first().waitFor({ timeout: 15_000 });
    await dragMap(page, -60, -40);
    const update = page.getByRole('button', { name: 'Update Search' });
    await update.waitFor({ timeout: 5000 });
    const height = (await update.boundingBox()).height;
    assert(height <= 44, `Update Search on one line, ${height} px tall`);
    await screenshot(page, 'walk-mobile-14-update-search');
  } finally {
    await browser.close();
  }
});

test('walk 10: on a phone the verify-email dialog keeps a long address inside, and the steps tick Create account', async () => {
  requireDatabase();
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, MOBILE);
    const email = `e2e-walk-10-a-rather-long-company-address-${Date.now()}@benefits.subsidiary.acme.example`;
    await registerMember(page, email);
    // An account whose email still waits for its link (the state the dialog is for).
    sql(`update members set email_verified_at = null where email = ${quote(email)}`);
    // A clinic chosen before confirming: the steps that show are Select Provider, Create account, ...
    await page.evaluate(() => window.localStorage.setItem('selectedProvider', JSON.stringify({ providerId: 1, locationId: 1, name: 'Clinic' })));
    await page.goto(`${BASE_URL}/confirm-plan-information`);
    const dialog = page.getByRole('dialog', { name: 'Verify your email' });
    await dialog.getByText(email).waitFor({ timeout: 15_000 });
    const overflow = await dialog.evaluate((element) => {
      const panel = element.firstElementChild ?? element;
      return [...panel.querySelectorAll('*')].some((child) => child.getBoundingClientRect().right > panel.getBoundingClientRect().right + 0.5) || panel.scrollWidth > panel.clientWidth;
    });
    assert(!overflow, 'the address stays inside the dialog');
    await screenshot(page, 'walk-mobile-10-verify-email-dialog');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const steps = page.getByRole('list', { name: 'Enrolment steps' });
    const createAccount = steps.getByRole('listitem').filter({ hasText: 'Create account' });
    assert(((await createAccount.textContent()) ?? '').includes('(done)'), `Create account is ticked, got ${await createAccount.textContent()}`);
  } finally {
    await browser.close();
  }
});
