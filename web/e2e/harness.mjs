// A tiny test harness for the browser tests: runs tests in order, prints one line per test and
// the closing 'N passed, N failed' line, and exits non-zero on failure.
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

export async function run() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const { name, fn } of tests) {
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
