/**
 * playwright-core and the Ghostery engine load on first use, not at import: together they add
 * ~95 MB of RSS to a process, and most processes that import `@quarry/adapters` (an HTTP-only
 * crawl, a worker with no browser) never start Chromium.
 */
type Playwright = typeof import('playwright-core');
type Ghostery = typeof import('@ghostery/adblocker-playwright');

let playwright: Promise<Playwright> | undefined;
let ghostery: Promise<Ghostery> | undefined;

export function loadPlaywright(): Promise<Playwright> {
  playwright ??= import('playwright-core');
  return playwright;
}

export function loadGhostery(): Promise<Ghostery> {
  ghostery ??= import('@ghostery/adblocker-playwright');
  return ghostery;
}
