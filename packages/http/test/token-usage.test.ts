import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { startOpenAiDouble, type LlmDouble } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/** /team/token-usage: a token balance per team (its plan less the tokens used), drawn down by the json format and extract. */
let site: MutableSite;
let openai: LlmDouble;
let quarry: TestQuarry;

beforeAll(async () => {
  site = await startMutableSite({ '/plan': articlePage('Plan', ['Plan: Basic', 'Price: 10']), '/pro': articlePage('Pro', ['Plan: Pro', 'Price: 20']) });
  openai = await startOpenAiDouble({ apiKey: 'sk-double' });
  quarry = await startQuarry({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-double', MODEL_NAME: 'double-1', QUARRY_RATE_LIMITS: '' });
});

afterAll(async () => {
  await quarry?.close();
  await openai?.close();
  await site?.close();
});

const schema = { type: 'object', properties: { plan: { type: 'string' }, price: { type: 'number' } } };

describe('token usage', () => {
  it("reports the team's token balance, drawn down by the json format and extract, apart from its credits (SDK v2 and v1)", async () => {
    const ledger = quarry.services.ledger;
    await ledger.ensureTeam('tokens', 'tokens');
    await ledger.setCredits('tokens', 1_000);
    await ledger.setTokens('tokens', 100_000);
    const key = (await ledger.createKey('tokens', 'k')).key;
    const firecrawl = new Firecrawl({ apiKey: key, apiUrl: quarry.url });
    expect(await firecrawl.getTokenUsage()).toMatchObject({ remainingTokens: 100_000, planTokens: 100_000 });

    const scraped = await firecrawl.scrape(`${site.url}/plan`, { formats: [{ type: 'json', schema }], maxAge: 0 });
    const scrapeTokens = Number(scraped.metadata?.tokensUsed);
    expect(scrapeTokens).toBeGreaterThan(0);
    expect((await firecrawl.getTokenUsage()).remainingTokens).toBe(100_000 - scrapeTokens);

    const extracted = await firecrawl.extract({ urls: [`${site.url}/pro`], schema, pollInterval: 1, timeout: 60 });
    expect(extracted.status).toBe('completed');
    const after = await firecrawl.getTokenUsage();
    const extractTokens = 100_000 - scrapeTokens - after.remainingTokens;
    expect(extractTokens).toBeGreaterThan(0);
    expect(after.planTokens).toBe(100_000);
    expect((await ledger.getTeam('tokens'))?.tokensUsed).toBe(scrapeTokens + extractTokens);
    // Credits are their own balance: tokens are not reported under the credits name, nor the reverse.
    expect((await firecrawl.getCreditUsage()).remainingCredits).toBe(1_000 - 5 - Number((extracted as { creditsUsed?: number }).creditsUsed ?? 0));

    const v1 = await fetch(`${quarry.url}/v1/team/token-usage`, { headers: { authorization: `Bearer ${key}` } });
    expect(await v1.json()).toMatchObject({ success: true, data: { remaining_tokens: after.remainingTokens, plan_tokens: 100_000 } });
  });

  it('reports an unlimited plan as 999,999,999 less the tokens used', async () => {
    const ledger = quarry.services.ledger;
    await ledger.ensureTeam('open', 'open');
    await ledger.chargeTokens('open', 1_234, 'scrape');
    const key = (await ledger.createKey('open', 'k')).key;
    const usage = await new Firecrawl({ apiKey: key, apiUrl: quarry.url }).getTokenUsage();
    expect(usage).toMatchObject({ remainingTokens: 999_999_999 - 1_234, planTokens: 999_999_999 });
  });
});
