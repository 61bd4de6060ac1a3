import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * Interact is not built yet: the SDK's interact() and stopInteraction() get a clear 501 (not a
 * 404 "No route") until the browser sessions behind it exist.
 */
let quarry: TestQuarry;

beforeAll(async () => {
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
});

describe('interact (not available yet)', () => {
  it('answers 501 to POST and DELETE /v2/scrape/{id}/interact, through the SDK too', async () => {
    for (const method of ['POST', 'DELETE']) {
      const response = await fetch(`${quarry.url}/v2/scrape/some-scrape/interact`, {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 'document.title' }) } : {}),
      });
      expect(response.status, method).toBe(501);
      expect(((await response.json()) as { error: string }).error).toContain('not available in this engine yet');
    }
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
    await expect(firecrawl.interact('some-scrape', { code: 'document.title' })).rejects.toThrow(/not available/);
    await expect(firecrawl.stopInteraction('some-scrape')).rejects.toThrow(/not available/);
  });
});
