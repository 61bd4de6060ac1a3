import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl, { type ScrapeOptions } from '@mendable/firecrawl-js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/** GET /v1/scrape/{id} and /v2/scrape/{id}: an earlier scrape's document by its metadata.scrapeId, the caller's team only. */
let site: MutableSite;
let quarry: TestQuarry;
let keys: { own: string; other: string };

beforeAll(async () => {
  site = await startMutableSite({ '/': articlePage('Kept', ['A page whose scrape is kept for a day.']) });
  quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
  const ledger = quarry.services.ledger;
  await ledger.ensureTeam('own', 'own');
  await ledger.ensureTeam('other', 'other');
  keys = { own: (await ledger.createKey('own', 'k')).key, other: (await ledger.createKey('other', 'k')).key };
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function get(path: string, key: string) {
  const response = await fetch(`${quarry.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as { success: boolean; data?: Record<string, unknown>; error?: string } };
}

describe('scrape by id', () => {
  it.each(['v1', 'v2'] as const)("%s: answers the stored document of the team's own scrape; another team's id is a 404", async (version) => {
    const firecrawl = new Firecrawl({ apiKey: keys.own, apiUrl: quarry.url });
    const scraped = (
      version === 'v2'
        ? await firecrawl.scrape(`${site.url}/`, { formats: ['markdown', 'html'] })
        : await firecrawl.v1.scrapeUrl(`${site.url}/`, { formats: ['markdown', 'html'] })
    ) as { markdown?: string; html?: string; metadata?: { scrapeId?: string } };
    const scrapeId = String(scraped.metadata?.scrapeId);
    expect(scrapeId).not.toBe('undefined');

    const again = await get(`/${version}/scrape/${scrapeId}`, keys.own);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.success).toBe(true);
    expect(again.body.data).toMatchObject({ markdown: scraped.markdown, html: scraped.html, metadata: { scrapeId, sourceURL: `${site.url}/` } });

    const stranger = await get(`/${version}/scrape/${scrapeId}`, keys.other);
    expect(stranger.status).toBe(404);
    expect(stranger.body.success).toBe(false);
    expect((await get(`/${version}/scrape/no-such-scrape`, keys.own)).status).toBe(404);
  });

  it('keeps nothing for a zero-data-retention scrape', async () => {
    const firecrawl = new Firecrawl({ apiKey: keys.own, apiUrl: quarry.url });
    const scraped = await firecrawl.scrape(`${site.url}/`, { formats: ['markdown'], zeroDataRetention: true } as ScrapeOptions);
    expect((await get(`/v2/scrape/${String(scraped.metadata?.scrapeId)}`, keys.own)).status).toBe(404);
  });
});
