// A tiny test harness for the browser tests: runs tests in order, prints one line per test and
// the closing 'N passed, N failed' line, and exits non-zero on failure.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.NEARCARE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

/** Debian's chromium with the flags TOOLCHAIN.md gives (no background network on a closed network). */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page, name) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // Let Leaflet and CSS transitions settle before the picture.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

export function assert(condition, message) {
  if (!condition) throw new Error(`assertion failed: ${message}`);
}

/**
 * Scrolls to the end of the page and checks that every target ends above the bar fixed to the
 * bottom of the viewport: the page must leave room for the bar so nothing stays hidden under it.
 */
export async function assertClearOfBottomBar(page, bar, targets) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.waitForTimeout(150);
  const barBox = await bar.boundingBox();
  assert(barBox, 'the bottom bar is visible');
  for (const [what, locator] of targets) {
    const box = await locator.boundingBox();
    assert(box, `${what} is visible`);
    const bottom = box.y + box.height;
    assert(bottom <= barBox.y + 0.5, `${what} ends at ${bottom.toFixed(1)} px, under the bottom bar starting at ${barBox.y.toFixed(1)} px`);
  }
}

/**
 * Types `text` into a box the page may still be filling in itself (a search restored from the
 * URL or the last visit): Playwright selects the old text and inserts the new one in two steps,
 * so a value the page writes between them is kept in front of it. The text is typed again until
 * the box holds exactly it.
 */
export async function fillBox(box, text) {
  for (let attempt = 1; ; attempt += 1) {
    await box.fill(text);
    const shown = await box.inputValue();
    if (shown === text) return;
    if (attempt === 3) throw new Error(`the box holds "${shown}" after typing "${text}" ${attempt} times`);
  }
}

const tests = [];

export function test(name, fn) {
  tests.push({ name, fn });
}

/** Thrown by {@link skip}: the test cannot run here (a missing server call or setting), which is not a failure. */
class Skip extends Error {}

/** Stops the current test as skipped, saying why. */
export function skip(reason) {
  throw new Skip(reason);
}

/** `E2E_ONLY=text` runs only the tests whose names contain the text (while working on them). */
const only = process.env.E2E_ONLY ?? '';

export async function run() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const { name, fn } of tests.filter((entry) => entry.name.includes(only))) {
    const started = Date.now();
    try {
      await fn();
      passed += 1;
      console.log(`ok - ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      if (error instanceof Skip) {
        skipped += 1;
        console.log(`skip - ${name}: ${error.message}`);
        continue;
      }
      failed += 1;
      console.log(`not ok - ${name}`);
      console.log(`  ${String(error?.stack ?? error).split('\n').join('\n  ')}`);
    }
  }
  if (skipped > 0) console.log(`${skipped} skipped`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0;
}

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
/** The e2e server's database: the browser tests read emailed links and stored rows from it. */
export const DATABASE_URL = process.env.E2E_DATABASE_URL ?? '';

/** Without the e2e server's database a test that reads it fails (it never skips). */
export function requireDatabase() {
  if (!DATABASE_URL) throw new Error('E2E_DATABASE_URL is not set: the browser tests read the emailed links and stored rows from the e2e server\'s database (scripts/test.sh exports it)');
}

export function sql(query) {
  requireDatabase();
  return execFileSync('psql', [DATABASE_URL, '-Atc', query], { encoding: 'utf8' }).trim();
}

export const quote = (text) => `'${text.replace(/'/g, "''")}'`;

/** The folder the e2e server's SMTP server (scripts/smtp-sink.py) writes each received message to. */
export const MAIL_DIR = process.env.E2E_MAIL_DIR ?? '';

/** The first link of the newest message the SMTP server received for `email` ('' when none). */
export function latestLink(email) {
  if (!MAIL_DIR) throw new Error('E2E_MAIL_DIR is not set: the browser tests read emailed links from the messages the e2e server\'s SMTP server received (scripts/test.sh starts it and exports the folder)');
  const address = email.toLowerCase();
  const names = readdirSync(MAIL_DIR).filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort().reverse();
  for (const name of names) {
    const message = JSON.parse(readFileSync(path.join(MAIL_DIR, name), 'utf8'));
    if (!message.rcpt_tos.some((to) => to.toLowerCase() === address)) continue;
    const link = (message.text ?? '').split(/\s+/).find((word) => /^https?:\/\//.test(word));
    if (link) return link;
  }
  return '';
}

/** The newest link emailed to `email` (optionally other than `after`), read from the messages the SMTP server received, polled for a few seconds. */
export async function outboxLink(email, after = null) {
  for (let attempt = 0; attempt < 60; attempt += 1) {
    const link = latestLink(email);
    if (link && link !== after) return link;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no new emailed link for ${email} in ${MAIL_DIR}`);
}

/** The emailed link on this server: messages hold the configured public URL. */
export function local(link) {
  const url = new URL(link);
  return `${BASE_URL}${url.pathname}${url.search}`;
}

export async function newPage(browser, viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch: viewport.width < 600, isMobile: viewport.width < 600 });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.log(`  page error: ${error.message}`));
  return { context, page };
}

export async function logIn(page, email, password) {
  await page.goto(`${BASE_URL}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}
