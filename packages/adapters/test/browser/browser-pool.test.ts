import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { PlaywrightFetcher } from '../../src/index.js';
import { chromiumPath, chromiumProcesses, skipWithoutChromium } from './browser-fixtures.js';

/**
 * The pool under a long run: many scrapes in a row (with retirements on the way) must leave no
 * growth in Chromium processes and a bounded memory, and closing leaves no process behind.
 */
const scrapes = Number(process.env.QUARRY_SOAK_SCRAPES ?? 120);
let site: TestServer;

beforeAll(async () => {
  site = await startTestServer((_request, response, url) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<!doctype html><html><body><div id="root"></div><script>document.getElementById('root').textContent = 'page ${url.pathname}';</script></body></html>`,
    );
  });
});

afterAll(async () => {
  await site?.close();
});

const totalRssMb = () => chromiumProcesses().reduce((sum, entry) => sum + entry.rssKb, 0) / 1024;

describe.skipIf(skipWithoutChromium)('BrowserPool soak', () => {
  it(`runs ${scrapes} scrapes with no growth in Chromium processes and bounded RSS, and leaves none after close`, { timeout: 300_000 }, async () => {
    const fetcher = new PlaywrightFetcher({
      executablePath: chromiumPath ?? '/usr/bin/chromium',
      allowPrivateHosts: ['127.0.0.1'],
      maxOpenPages: 2,
      retireAfterPages: 40,
    });
    const counts: number[] = [];
    const rss: number[] = [];
    try {
      for (let index = 0; index < scrapes; index += 2) {
        const pair = await Promise.all([index, index + 1].map((n) => fetcher.fetch({ url: new URL(`/p/${n}`, site.url), timeoutMs: 20_000 })));
        for (const [offset, response] of pair.entries()) expect(response.browser?.renderedHtml).toContain(`page /p/${index + offset}`);
        if (index % 20 === 18) {
          counts.push(chromiumProcesses().length);
          rss.push(totalRssMb());
        }
      }
      const stats = fetcher.stats()!;
      expect(stats.launched).toBeGreaterThanOrEqual(Math.floor(scrapes / 40));
      expect(stats.openPages).toBe(0);
      // Retired browsers close in the background: wait until only the live one's processes remain.
      const baseline = counts[0]!;
      await waitFor(() => chromiumProcesses().length <= baseline, { timeoutMs: 20_000, message: `Chromium processes back to ${baseline}` });
      console.info(`processes per sample: ${counts.join(' ')}; RSS MB per sample: ${rss.map((value) => value.toFixed(0)).join(' ')}`);
      expect(Math.max(...counts)).toBeLessThanOrEqual(baseline * 2);
      expect(Math.max(...rss.slice(1))).toBeLessThan(Math.max(rss[0]! * 2, 600));
    } finally {
      await fetcher.close();
    }
    await waitFor(() => chromiumProcesses().length === 0, { timeoutMs: 15_000, message: 'no Chromium process left' });
  });
});
