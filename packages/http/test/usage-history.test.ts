import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * Usage by billing period through the official SDK (v2 and .v1): credits and tokens per calendar
 * month, per API key when asked, the team's own usage only.
 */
let site: MutableSite;
let quarry: TestQuarry;
let keyA1: string;
let keyA2: string;
let keyB: string;

beforeAll(async () => {
  site = await startMutableSite({ '/': articlePage('Usage', ['A page to spend credits on.']) });
  quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
  const ledger = quarry.services.ledger;
  await ledger.ensureTeam('acme', 'acme');
  await ledger.ensureTeam('other', 'other');
  keyA1 = (await ledger.createKey('acme', 'one')).key;
  keyA2 = (await ledger.createKey('acme', 'two')).key;
  keyB = (await ledger.createKey('other', 'b')).key;
  const scrapeWith = (key: string) => new Firecrawl({ apiKey: key, apiUrl: quarry.url }).scrape(`${site.url}/`, { formats: ['markdown'], maxAge: 0 });
  await scrapeWith(keyA1);
  await scrapeWith(keyA1);
  await scrapeWith(keyA2);
  await scrapeWith(keyB);
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

const month = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
};

describe('usage history', () => {
  it("v2 getCreditUsageHistorical: this month, the team's own credits", async () => {
    const result = (await new Firecrawl({ apiKey: keyA1, apiUrl: quarry.url }).getCreditUsageHistorical()) as unknown as {
      periods: Array<Record<string, unknown>>;
    };
    expect(result.periods).toEqual([{ startDate: month(), endDate: expect.stringMatching(/T23:59:59\.999Z$/), creditsUsed: 3 }]);
  });

  it("v2 byApiKey: one period per key, never another team's", async () => {
    const result = (await new Firecrawl({ apiKey: keyA2, apiUrl: quarry.url }).getCreditUsageHistorical(true)) as {
      periods: Array<{ apiKey: string | null; creditsUsed: number }>;
    };
    const used = result.periods.map((period) => period.creditsUsed).sort();
    expect(used).toEqual([1, 2]);
    expect(result.periods.every((period) => typeof period.apiKey === 'string')).toBe(true);
  });

  it('v1 getCreditUsageHistorical and v2 getTokenUsageHistorical answer', async () => {
    const v1 = (await new Firecrawl({ apiKey: keyB, apiUrl: quarry.url }).v1.getCreditUsageHistorical()) as {
      success: boolean;
      periods: Array<{ creditsUsed: number }>;
    };
    expect(v1.success).toBe(true);
    expect(v1.periods.map((period) => period.creditsUsed)).toEqual([1]);
    const tokens = (await new Firecrawl({ apiKey: keyB, apiUrl: quarry.url }).getTokenUsageHistorical()) as { periods: Array<{ tokensUsed: number }> };
    expect(tokens.periods).toEqual([{ startDate: month(), endDate: expect.any(String), tokensUsed: 0 }]);
  });
});
