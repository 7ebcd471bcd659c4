// Browser test of the security headers: the pages work under the server's Content-Security-Policy
// (no violation reported, in the console or as a securitypolicyviolation event) on the
// marketplace with its map, a clinician profile with its map, and the login page.
import { assert, BASE_URL, DESKTOP, launchBrowser, newPage, test } from './harness.mjs';

/** Opens `path`, waits for `ready`, and returns the CSP violations the page reported. */
async function violationsOn(browser, path, ready) {
  const { context, page } = await newPage(browser, DESKTOP);
  try {
    const reported = [];
    page.on('console', (message) => {
      const text = message.text();
      if (/Content Security Policy|Refused to (load|apply|execute|connect|frame)/i.test(text)) reported.push(`console: ${text}`);
    });
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    const response = await page.goto(`${BASE_URL}${path}`);
    const policy = response.headers()['content-security-policy'] ?? '';
    assert(policy.includes("default-src 'self'"), `${path}: the page is served with a CSP, got '${policy}'`);
    assert(response.headers()['x-content-type-options'] === 'nosniff', `${path}: nosniff`);
    assert(response.headers()['x-frame-options'] === 'DENY', `${path}: X-Frame-Options`);
    await ready(page);
    // Late images and styles (map tiles, popups) report too.
    await page.waitForTimeout(500);
    const events = await page.evaluate(() => window.__cspViolations);
    return [...reported, ...events.map((event) => `event: ${event}`)];
  } finally {
    await context.close();
  }
}

test('security: no Content-Security-Policy violation on the marketplace map, a profile and the login page', async () => {
  const browser = await launchBrowser();
  try {
    const pages = [
      [
        '/marketplace',
        async (page) => {
          await page.getByRole('heading', { name: 'Advanced Primary Care powered by the provider' }).waitFor();
          await page.locator('.nc-area').first().waitFor({ timeout: 15_000 });
          // The basemap's vector tiles, fetched and drawn on canvases.
          await page.locator('.nc-basemap-tiles canvas.leaflet-tile-loaded').first().waitFor({ state: 'attached' });
        },
      ],
      [
        '/marketplace/clinician/details/1',
        async (page) => {
          await page.locator('#clinician-name').waitFor();
          await page.getByRole('tab', { name: /Locations/ }).click();
          await page.locator('.nc-pin').first().waitFor({ timeout: 15_000 });
        },
      ],
      [
        '/login',
        async (page) => {
          await page.getByLabel('Email').waitFor();
        },
      ],
    ];
    for (const [path, ready] of pages) {
      const violations = await violationsOn(browser, path, ready);
      assert(violations.length === 0, `${path}: CSP violations:\n${violations.join('\n')}`);
    }
  } finally {
    await browser.close();
  }
});
