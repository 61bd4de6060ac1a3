import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChromiumFlags, findChromium } from '@quarry/adapters';
import { docsSiteRoutes, startTestServer, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** The jobs table on a 390-px-wide phone: every job readable with no sideways scrolling. */
const chromiumPath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
const skip = !chromiumPath && !process.env.CI;
if (skip) console.warn('Dashboard phone test skipped: no Chromium found (apt-get install chromium, or set QUARRY_CHROMIUM_PATH)');
const artifacts = fileURLToPath(new URL('../../../test-artifacts/dashboard/', import.meta.url));
let site: TestServer;
let quarry: TestQuarry;
let browser: Browser;
let key: string;

beforeAll(async () => {
  if (skip) return;
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_TRANSFORM_THREADS: '1' });
  await quarry.services.ledger.ensureTeam('phone', 'phone');
  key = (await quarry.services.ledger.createKey('phone', 'main')).key;
  for (const path of ['/docs/', '/about']) {
    await fetch(`${quarry.url}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}${path}?a-long-query-string-that-does-not-fit=${'x'.repeat(40)}`, limit: 2 }),
    });
  }
  browser = await chromium.launch({ executablePath: chromiumPath!, headless: true, chromiumSandbox: false, args: [...defaultChromiumFlags] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await quarry?.close();
  await site?.close();
});

describe.skipIf(skip)('the jobs table on a phone', () => {
  it('fits 390 px: no sideways scroll, every cell labelled', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${quarry.url}/dashboard/login`);
    await page.getByLabel('Admin token or API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.goto(`${quarry.url}/dashboard/jobs`);
    const table = page.locator('table.stack');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    const widths = await page.evaluate(() => {
      const scroller = document.querySelector('table.stack')!.closest('.table-scroll')!;
      return { page: document.documentElement.scrollWidth, scroller: scroller.scrollWidth - scroller.clientWidth };
    });
    expect(widths.page).toBeLessThanOrEqual(390);
    expect(widths.scroller).toBeLessThanOrEqual(1);
    const label = await table
      .locator('tbody td')
      .first()
      .evaluate((cell) => getComputedStyle(cell, '::before').content);
    expect(label).toBe('"Kind"');
    await mkdir(artifacts, { recursive: true });
    await page.screenshot({ path: `${artifacts}jobs-390.png`, fullPage: true });
    await page.close();
  });
});
