// Browser tests of the profile and solution routes, and of custom company URLs.
import { assert, BASE_URL, launchBrowser, screenshot, test } from './harness.mjs';

async function withPage(viewport, fn) {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.log(`  page error: ${error.message}`));
    await fn(page);
  } finally {
    await browser.close();
  }
}

async function api(path) {
  const response = await fetch(`${BASE_URL}${path}`);
  assert(response.ok, `${path} answered ${response.status}`);
  return response.json();
}

test('clinician profile: tabs, core services and the clinics map', () =>
  withPage({ width: 1280, height: 800 }, async (page) => {
    await page.goto(`${BASE_URL}/marketplace/clinician/details/1`);
    await page.locator('#clinician-name').waitFor();
    await page.getByText('Trusted Partner').waitFor();
    assert((await page.title()) === 'Member - Clinician Details', 'title');
    await page.getByRole('link', { name: 'Login' }).first().waitFor();
    await screenshot(page, 'desktop-10-clinician-profile');
    await page.getByRole('tab', { name: 'Services' }).click();
    await page.getByText('Wellness Checks and Preventative Care').waitFor();
    await page.getByRole('tab', { name: /Locations/ }).click();
    const map = page.getByRole('region', { name: /clinics/ });
    await map.scrollIntoViewIfNeeded();
    await page.locator('.nc-pin').first().waitFor();
    await screenshot(page, 'desktop-11-clinician-locations');
    // Select on one of the clinician's clinics (signed out): the employer prompt first, then registration.
    await page.getByRole('button', { name: 'Select', exact: true }).first().click();
    const prompt = page.getByRole('dialog', { name: 'Who is your employer?' });
    await prompt.getByRole('button', { name: /Select your employer/ }).click();
    await prompt.getByPlaceholder('Search employer here').fill('Acme');
    await prompt.getByRole('option', { name: /^Acme Corporation/ }).click();
    await page.getByRole('dialog', { name: 'Perfect!' }).getByRole('button', { name: 'Find My Provider' }).click();
    await page.waitForURL(/\/register$/);
    await page.getByRole('button', { name: /Acme Corporation/ }).waitFor();
  }));

test('category listing links to a vendor profile', () =>
  withPage({ width: 1280, height: 800 }, async (page) => {
    const { categories } = await api('/member/app/market');
    const category = categories.find((entry) => entry.items.some((item) => item.entity === 'vendor'));
    assert(category, 'a category with a vendor');
    const vendor = category.items.find((item) => item.entity === 'vendor');
    await page.goto(`${BASE_URL}/marketplace/all/${category.slug}`);
    await page.getByRole('heading', { name: category.name }).waitFor();
    await page.getByRole('link', { name: 'Back to Solutions' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search solutions' }).fill(vendor.name.slice(0, 6));
    await screenshot(page, 'desktop-12-category-listing');
    await page.getByRole('link', { name: new RegExp(vendor.name) }).click();
    await page.getByText('Non-Provider Vendor').waitFor();
    await page.getByText('Contact Information').click();
    await screenshot(page, 'desktop-13-vendor-profile');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(/\/marketplace$/);
  }));

test('a custom company URL preselects the employer and restricts the organisation filter', () =>
  withPage({ width: 1280, height: 800 }, async (page) => {
    const restricted = await api('/market/organization/company/name?alias=northwind&limit=50');
    await page.goto(`${BASE_URL}/marketplace?company=northwind`);
    await page.getByRole('button', { name: /Northwind Health Partners/ }).waitFor();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const group = page.getByRole('group', { name: 'Group & organization' });
    await group.getByRole('checkbox').first().waitFor();
    const shown = await group.getByRole('checkbox').count();
    assert(shown === Math.min(3, restricted.length), `3 organisations at first, got ${shown}`);
    const firstLabel = (await group.locator('label').first().textContent()).trim();
    assert(restricted.includes(firstLabel), `${firstLabel} belongs to the northwind network`);
  }));

test('an unknown company alias falls back to /marketplace', () =>
  withPage({ width: 1280, height: 800 }, async (page) => {
    await page.goto(`${BASE_URL}/marketplace?company=no-such-company`);
    await page.waitForURL(/\/marketplace$/);
  }));
