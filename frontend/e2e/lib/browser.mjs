// Debian's Chromium driven by playwright-core. No browser is ever downloaded.
import { mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = join(here, '..', '..', 'test-results', 'screenshots');

export const CHROMIUM_PATH = process.env.STRATA_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The real server (SPA and API on one port), when STRATA_E2E_BASE_URL is set. */
export const API_URL = (process.env.STRATA_E2E_BASE_URL || '').replace(/\/+$/, '');
export const HAS_API = Boolean(API_URL);
/** frontend/dist on a plain static server with no back end (run.mjs starts it). */
export const STATIC_URL = (process.env.E2E_STATIC_URL || '').replace(/\/+$/, '');
export const HAS_STATIC = Boolean(STATIC_URL);

export async function launch() {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export const DESKTOP = { width: 1366, height: 860 };
export const TABLET = { width: 768, height: 1024 };

/** A fresh context (own cookies and storage) with a page on it; uncaught page errors are collected. */
export async function newPage(browser, { baseURL, viewport = DESKTOP, storage } = {}) {
  if (!baseURL) throw new Error('No base URL: run the browser tests with `npm run e2e`.');
  const context = await browser.newContext({ viewport, baseURL, locale: 'en-US', timezoneId: 'UTC' });
  if (storage) {
    await context.addInitScript((entries) => {
      if (window.sessionStorage.getItem('__e2e_seeded')) return;
      for (const [k, v] of Object.entries(entries)) window.localStorage.setItem(k, v);
      window.sessionStorage.setItem('__e2e_seeded', '1');
    }, storage);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  guardFills(page);
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return { context, page, errors };
}

/**
 * Makes `locator.fill` check that the text landed. After an invalid submit react-hook-form
 * focuses the first invalid field twice: at once and again in a `setTimeout`. A fill that
 * starts between the two can have its focus taken (Playwright focuses, then types as separate
 * steps), so the text goes into the invalid field instead. No person types that fast; the
 * tests do, on a slow machine. So a fill whose field does not hold the value afterwards is
 * done once more (the pending re-focus has run by then). Patched once, on the shared
 * Locator prototype.
 */
function guardFills(page) {
  const proto = Object.getPrototypeOf(page.locator('body'));
  if (proto.__fillGuarded) return;
  const fill = proto.fill;
  proto.fill = async function guardedFill(value, options) {
    await fill.call(this, value, options);
    const landed = await this.inputValue({ timeout: 1_000 }).catch(() => null);
    if (landed !== null && landed !== value) {
      await this.page().evaluate(() => new Promise((done) => setTimeout(done, 0)));
      await fill.call(this, value, options);
    }
  };
  proto.__fillGuarded = true;
}

function slug(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

export async function screenshot(page, name) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${slug(name)}.png`);
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  return path;
}
