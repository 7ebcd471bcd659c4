// A tiny test harness for the browser tests: runs tests in order, prints one line per test and
// the closing 'N passed, N failed' line, and exits non-zero on failure.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.NEARCARE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
export const SCREENSHOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results/screenshots');

/** Debian's chromium with the flags TOOLCHAIN.md gives (no background network on a closed network). */
export async function launchBrowser() {
  const browser = await chromium.launch({
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
  // A test's last screen, never photographed, is checked as the browser closes.
  const close = browser.close.bind(browser);
  browser.close = async (...args) => {
    try {
      for (const context of browser.contexts()) for (const page of context.pages()) await checkUnchecked(page);
    } finally {
      await close(...args);
    }
  };
  return browser;
}

/**
 * axe-core (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) on the screen a page shows: every screenshot a test
 * takes, and a page's last screen when its browser or context closes. Any violation fails the
 * test, with each rule, its impact and the elements it names; `E2E_AXE=report` only prints them
 * (while working on a screen). Injected with page.evaluate, which the app's CSP does not govern,
 * so the pages keep their real policy.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const axeReportOnly = process.env.E2E_AXE === 'report';
class AxeViolations extends Error {}
/** Every check's findings, for the closing summary: screen, width and violations. */
const axeChecks = [];
/** The URL each page last had checked (a page whose screen is unchanged is not checked again). */
const checkedScreens = new WeakMap();

export async function checkAccessibility(page, name) {
  const url = page.url();
  if (!url.startsWith(BASE_URL)) return;
  checkedScreens.set(page, url);
  if (await page.evaluate(() => !window.axe)) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => `${node.target.join(' ')} ${node.failureSummary?.split('\n').slice(1, 2).join('').trim() ?? ''}`),
    }));
  }, AXE_TAGS);
  const width = page.viewportSize()?.width ?? 0;
  axeChecks.push({ name, path: new URL(url).pathname, width, violations });
  if (violations.length === 0) return;
  const text = violations.map((violation) => `${violation.impact} ${violation.id} (${violation.help}):\n      ${violation.nodes.slice(0, 5).join('\n      ')}`).join('\n    ');
  if (axeReportOnly) console.log(`  axe ${name} @${width}px:\n    ${text}`);
  else throw new AxeViolations(`axe-core: ${violations.length} violation(s) on ${name} (${new URL(url).pathname}, ${width} px wide):\n    ${text}`);
}

/**
 * Violations found while a test closes its pages: kept for run() to fail the test with, so a close
 * in a `finally` never hides the error the test itself threw.
 */
let closingViolations = [];

async function checkUnchecked(page) {
  if (page.isClosed() || checkedScreens.get(page) === page.url()) return;
  const name = `last screen of ${new URL(page.url()).pathname}`;
  // A page still loading or navigating away is not a screen a person sees.
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => null);
  await checkAccessibility(page, name).catch((error) => {
    if (error instanceof AxeViolations) closingViolations.push(error.message);
  });
}

/** The axe findings of the whole run, by width and impact (printed by run()). */
function axeSummary() {
  const lines = [];
  for (const width of [...new Set(axeChecks.map((check) => check.width))].sort((a, b) => b - a)) {
    const checks = axeChecks.filter((check) => check.width === width);
    const screens = new Set(checks.map((check) => check.path)).size;
    // A rule broken on a screen counts once, however often the screen was checked.
    const found = new Map();
    for (const check of checks) for (const violation of check.violations) found.set(`${check.path} ${violation.id}`, violation.impact);
    const byImpact = {};
    for (const impact of found.values()) byImpact[impact] = (byImpact[impact] ?? 0) + 1;
    const counts = Object.entries(byImpact).map(([impact, count]) => `${count} ${impact}`).join(', ') || 'no violations';
    lines.push(`axe-core at ${width} px: ${checks.length} checks over ${screens} screens, ${counts}`);
  }
  return lines;
}

export async function screenshot(page, name) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  // Let Leaflet and CSS transitions settle before the picture.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
  await checkAccessibility(page, name);
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
    closingViolations = [];
    try {
      await fn();
      if (closingViolations.length > 0) throw new AxeViolations(closingViolations.join('\n'));
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
  for (const line of axeSummary()) console.log(line);
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

/** The operator's CLI, <repo>/target/debug/indexer unless E2E_INDEXER names another. */
const INDEXER = process.env.E2E_INDEXER ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../target/debug/indexer');

/** Runs the operator's CLI against the e2e server's database; answers what it printed. */
export function indexer(...args) {
  requireDatabase();
  return execFileSync(INDEXER, args, { encoding: 'utf8', env: { ...process.env, DATABASE_URL } });
}

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

/** A call to the e2e server's API with an optional access token; a refusal fails the test with the answer. */
export async function api(path, { token = null, method = 'GET', body = undefined } = {}) {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => null);
  assert(response.ok, `${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * Waits until the app has taken over a page the server painted (a company search link's first
 * screen, crates/api/src/first_paint): until then its cards and buttons are the server's markup,
 * which look the same but do nothing.
 */
export async function appStarted(page) {
  await page.waitForFunction(() => !document.querySelector('[data-painted]'), null, { timeout: 30_000 });
}

export async function newPage(browser, viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, hasTouch: viewport.width < 600, isMobile: viewport.width < 600 });
  const close = context.close.bind(context);
  context.close = async (...args) => {
    try {
      for (const open of context.pages()) await checkUnchecked(open);
    } finally {
      await close(...args);
    }
  };
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
