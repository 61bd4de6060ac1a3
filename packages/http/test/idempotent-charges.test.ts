import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * A request a client retries with the same Idempotency-Key (or Firecrawl's x-idempotency-key) is
 * charged once: the work runs again, the charge does not (Billing.chargeRequest).
 */
let site: MutableSite;
let quarry: TestQuarry;
let key: string;

beforeAll(async () => {
  site = await startMutableSite({ '/': articlePage('Retried', ['A page a flaky client asks for twice.']) });
  quarry = await startQuarry({ QUARRY_RATE_LIMITS: '' });
  await quarry.services.ledger.ensureTeam('acme', 'acme');
  await quarry.services.ledger.setCredits('acme', 100);
  key = (await quarry.services.ledger.createKey('acme', 'ci')).key;
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${quarry.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { success: boolean; error?: string } };
}

const credits = async () => quarry.services.ledger.getCredits('acme');
const scrape = { url: '', formats: ['markdown'], maxAge: 0 };

describe('idempotent charges', () => {
  it('charges a scrape retried with one Idempotency-Key once, and another key again', async () => {
    const body = { ...scrape, url: `${site.url}/` };
    const before = await credits();
    expect((await post('/v2/scrape', body, { 'idempotency-key': 'scrape-1' })).body.success).toBe(true);
    expect((await post('/v2/scrape', body, { 'idempotency-key': 'scrape-1' })).body.success).toBe(true);
    expect(await credits()).toBe(before! - 1);
    expect((await post('/v2/scrape', body, { 'x-idempotency-key': 'scrape-2' })).body.success).toBe(true);
    expect((await post('/v2/scrape', body)).body.success).toBe(true);
    expect(await credits()).toBe(before! - 3);
    const usage = await quarry.services.ledger.listUsage('acme', { kind: 'credits' });
    expect(usage.filter((row) => row.reason === 'scrape')).toHaveLength(3);
  });

  it('charges a map retried with one key once', async () => {
    const before = await credits();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await post('/v2/map', { url: `${site.url}/` }, { 'idempotency-key': 'map-1' })).status).toBe(200);
    }
    expect(await credits()).toBe(before! - 1);
  });

  it('refuses a key longer than 255 characters, naming the header', async () => {
    const answer = await post('/v2/scrape', { ...scrape, url: `${site.url}/` }, { 'idempotency-key': 'k'.repeat(256) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain('Idempotency-Key');
  });
});
