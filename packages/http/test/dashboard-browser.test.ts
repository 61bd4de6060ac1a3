import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChromiumFlags, findChromium } from '@quarry/adapters';
import { docsSiteRoutes, startTestServer, type RouteTable, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * The dashboard end to end in real Chromium, as an operator and a team use it: sign in as admin,
 * create a team, sign in with its key, create a named key and see it once, use it through the API,
 * revoke it and see the API answer 401, start a crawl of a local site and watch its progress
 * reach completed, open a page's markdown, run the playground. Each view is saved as a screenshot
 * under test-artifacts/dashboard/ (gitignored), at desktop and phone widths.
 */
const chromiumPath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
const skip = !chromiumPath && process.env.CI !== 'true';
if (skip) console.warn('Dashboard browser tests skipped: no Chromium found (apt-get install chromium, or set QUARRY_CHROMIUM_PATH)');

const artifacts = fileURLToPath(new URL('../../../test-artifacts/dashboard/', import.meta.url));
const adminToken = 'operator-secret-for-the-browser-test';
let site: TestServer;
let quarry: TestQuarry;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let teamKey: string;
let namedKey: string;

/** The docs site, each page a little slow so that a crawl's progress can be watched. */
function slowSite(routes: RouteTable) {
  return startTestServer(async (request, response, url) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    const route = routes[url.pathname];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/html' });
      return response.end('<h1>Not found</h1>');
    }
    if (typeof route === 'function') return route(request, response, url);
    response.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers });
    response.end(route.body);
  });
}

const eventually = { timeout: 30_000 };
const textOf = async (locator: Locator) => ((await locator.textContent()) ?? '').trim();
const expectText = (locator: Locator, expected: string | RegExp) =>
  typeof expected === 'string'
    ? expect.poll(() => textOf(locator), eventually).toBe(expected)
    : expect.poll(() => textOf(locator), eventually).toMatch(expected);
const expectContains = (locator: Locator, expected: string) => expect.poll(() => textOf(locator), eventually).toContain(expected);
const expectFocused = (locator: Locator) => expect.poll(() => locator.evaluate((element) => element === document.activeElement), eventually).toBe(true);

async function snap(name: string) {
  await page.screenshot({ path: `${artifacts}${name}.png`, fullPage: true });
}

/** Every visible form control has an accessible name, and the page does not overflow sideways. */
async function expectAccessibleLayout() {
  const unlabelled = await page.evaluate(() =>
    [...document.querySelectorAll('input, select, textarea, button')]
      .filter((element) => (element as HTMLInputElement).type !== 'hidden' && !(element as HTMLElement).hidden)
      .filter((element) => {
        const control = element as HTMLInputElement;
        const named = (control.labels?.length ?? 0) > 0 || control.getAttribute('aria-label') || (element.tagName === 'BUTTON' && element.textContent?.trim());
        return !named;
      })
      .map((element) => element.outerHTML),
  );
  expect(unlabelled).toEqual([]);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

async function signIn(secret: string) {
  await page.goto(`${quarry.url}/dashboard`);
  await expect.poll(() => page.url()).toBe(`${quarry.url}/dashboard/login`);
  await page.getByLabel('Admin token or API key').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut() {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${quarry.url}/dashboard/login`);
}

async function api(path: string, key: string, body: unknown) {
  const response = await fetch(`${quarry.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  if (skip) return;
  await mkdir(artifacts, { recursive: true });
  site = await slowSite(docsSiteRoutes());
  quarry = await startQuarry({
    QUARRY_ADMIN_TOKEN: adminToken,
    QUARRY_CHROMIUM_PATH: chromiumPath!,
    QUARRY_TRANSFORM_THREADS: '1',
    QUARRY_WORKER_CONCURRENCY: '1',
  });
  browser = await chromium.launch({ executablePath: chromiumPath!, headless: true, chromiumSandbox: false, args: [...defaultChromiumFlags] });
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: quarry.url });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await quarry?.close();
  await site?.close();
});

describe.skipIf(skip)('the dashboard in Chromium', { timeout: 90_000 }, () => {
  it('signs the operator in with the admin token and creates a team with its first key', async () => {
    await page.goto(`${quarry.url}/dashboard`);
    await page.waitForURL(`${quarry.url}/dashboard/login`);
    await expectAccessibleLayout();
    await snap('01-sign-in');
    await signIn(adminToken);
    await expect.poll(() => page.url()).toBe(`${quarry.url}/dashboard/admin`);
    await expectText(page.getByRole('heading', { level: 1 }), 'Teams');

    await page.getByLabel('Team name').fill('acme');
    await page.getByLabel('Credits', { exact: true }).fill('500');
    await page.getByLabel('Name of its first API key').fill('bootstrap');
    await page.getByRole('button', { name: 'Create team' }).click();
    const secret = page.locator('#new-key');
    await expectText(secret, /^fc-[0-9a-f]{40}$/);
    teamKey = (await secret.textContent())!;
    await expectContains(page.getByRole('row', { name: /acme/ }), '500');
    await expectAccessibleLayout();
    await snap('02-admin-teams');

    await page.goto(`${quarry.url}/dashboard/admin/teams/acme`);
    expect(await textOf(page.locator('body'))).not.toContain(teamKey);
    await expectContains(page.getByRole('row', { name: /bootstrap/ }), `${teamKey.slice(0, 7)}…${teamKey.slice(-4)}`);
    await snap('03-admin-team-usage');
    await signOut();
  });

  it('signs a team in with its key, creates a named key shown once, and uses it through the API', async () => {
    await signIn(teamKey);
    await expect.poll(() => page.url()).toBe(`${quarry.url}/dashboard/usage`);
    await page.getByText('Credits remaining').waitFor({ state: 'visible' });

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name of the new key').fill('ci-runner');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('#new-key');
    await expectText(secret, /^fc-[0-9a-f]{40}$/);
    namedKey = (await secret.textContent())!;
    const copy = page.locator('button[data-copy="new-key"]');
    await copy.click();
    await expectText(copy, 'Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(namedKey);
    await expectAccessibleLayout();
    await snap('04-key-created-once');

    await page.goto(`${quarry.url}/dashboard/keys`);
    expect(await textOf(page.locator('body'))).not.toContain(namedKey);
    const row = page.getByRole('row', { name: /ci-runner/ });
    await expectContains(row, `${namedKey.slice(0, 7)}…${namedKey.slice(-4)}`);
    await expectContains(row, 'never');

    const scraped = await api('/v2/scrape', namedKey, { url: `${site.url}/docs/install` });
    expect(scraped.status).toBe(200);
    await page.reload();
    expect(await textOf(page.getByRole('row', { name: /ci-runner/ }))).not.toContain('never');
    await snap('05-keys');
  });

  it('revokes the key after a confirmation, and the API answers 401 at once', async () => {
    await page.getByRole('link', { name: 'Revoke ci-runner' }).click();
    await expectText(page.getByRole('heading', { level: 1 }), 'Revoke a key');
    await snap('06-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await expectContains(page.getByRole('status'), 'revoked');
    await expectContains(page.getByRole('row', { name: /ci-runner/ }), 'revoked');
    expect((await api('/v2/scrape', namedKey, { url: `${site.url}/docs/install` })).status).toBe(401);
    expect((await api('/v2/scrape', teamKey, { url: `${site.url}/docs/install` })).status).toBe(200);
  });

  it('starts a crawl and shows its progress live until it completes', async () => {
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.getByLabel('Start URL').fill(`${site.url}/docs/`);
    await page.getByLabel('Most pages').fill('6');
    await page.getByRole('button', { name: 'Start crawl' }).click();
    await page.waitForURL(/\/dashboard\/jobs\/[0-9a-f-]{36}$/);
    const jobUrl = page.url();
    const status = page.locator('[data-field="status"]');
    await expectText(status, 'scraping');
    await snap('07-crawl-running');
    // The page is not reloaded by the test: the figures change through the live updates.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          seen.add((await page.locator('[data-field="completed"]').textContent()) ?? '');
          return status.textContent();
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe('completed');
    expect(seen.size).toBeGreaterThan(1);
    expect(page.url()).toBe(jobUrl);
    await expectText(page.locator('[data-field="completed"]'), '6');
    await expect.poll(() => page.getByRole('region', { name: 'Pages', exact: true }).getByRole('row').count(), eventually).toBe(7);
    await expect.poll(() => page.getByRole('link', { name: 'Cancel job…' }).count(), eventually).toBe(0);
    await expectAccessibleLayout();
    await snap('08-crawl-completed');

    await page.getByRole('link', { name: 'Docs | Docs Site' }).click();
    await expectText(page.locator('#rendered-markdown h1'), 'Docs');
    await page.locator('#rendered-markdown table').waitFor({ state: 'visible' });
    await expectContains(page.locator('dl.meta'), `${site.url}/docs/`);
    await expectAccessibleLayout();
    await snap('09-page-markdown');

    await page.goto(`${quarry.url}/dashboard/jobs`);
    await expectContains(page.getByRole('row', { name: /Crawl/ }), 'completed');
    await snap('10-jobs');
  });

  it('runs the playground: formats side by side, the screenshot, and the same request as curl and SDK calls', async () => {
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.getByLabel('URL').fill(`${site.url}/docs/install`);
    for (const format of ['HTML (cleaned)', 'Links', 'Screenshot (needs Chromium)']) await page.getByLabel(format).check();
    await page.getByRole('button', { name: 'Scrape' }).click();
    await expectText(page.locator('#result-markdown h1'), 'Install');
    await expectContains(page.locator('#result-html pre'), '<h1>Install</h1>');
    await expectContains(page.locator('#result-links'), `${site.url}/docs/config`);
    await expectContains(page.locator('#result-metadata'), 'Install | Docs Site');
    const screenshot = page.locator('#result-screenshot img');
    await expect.poll(() => screenshot.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await expectContains(page.locator('#snippet-curl'), `curl -X POST '${quarry.url}/v2/scrape'`);
    await expectContains(page.locator('#snippet-curl'), '"formats":["markdown","html","links","screenshot"]');
    await expectContains(page.locator('#snippet-js'), `apiUrl: "${quarry.url}"`);
    expect(await textOf(page.locator('body'))).not.toContain(teamKey);
    await expectAccessibleLayout();
    await snap('11-playground');
  });

  it('works on a narrow screen and with the keyboard', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [path, name] of [
      ['/dashboard/usage', '12-phone-usage'],
      ['/dashboard/keys', '13-phone-keys'],
      ['/dashboard/jobs', '14-phone-jobs'],
    ] as const) {
      await page.goto(`${quarry.url}${path}`);
      await expectAccessibleLayout();
      await snap(name);
    }
    await page.goto(`${quarry.url}/dashboard/keys`);
    await page.keyboard.press('Tab');
    await expectFocused(page.getByRole('link', { name: 'Skip to content' }));
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expectFocused(page.getByLabel('Name of the new key'));
    await page.keyboard.type('typed-with-keys');
    await page.keyboard.press('Enter');
    await expectText(page.locator('#new-key'), /^fc-/);
    await signOut();
  });
});
