import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** /team/queue-status says when the team's last work succeeded (Firecrawl's `mostRecentSuccess`). */
let site: TestServer;
let quarry: TestQuarry;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

const queueStatus = async (key: string) =>
  (await (await fetch(`${quarry.url}/v2/team/queue-status`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
    success: boolean;
    mostRecentSuccess: string | null;
  };

describe('queue status', () => {
  it('mostRecentSuccess: null before any work, then when the last page of a completed crawl finished', async () => {
    await quarry.services.ledger.ensureTeam('queue-team', 'queue-team');
    await quarry.services.ledger.setCredits('queue-team', 1000);
    const { key } = await quarry.services.ledger.createKey('queue-team', 'test');
    expect(await queueStatus(key)).toMatchObject({ success: true, mostRecentSuccess: null });

    const before = Date.now();
    const started = await fetch(`${quarry.url}/v2/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/docs/`, limit: 3 }),
    });
    const { id } = (await started.json()) as { id: string };
    for (let attempt = 0; attempt < 300; attempt++) {
      const status = (await (await fetch(`${quarry.url}/v2/crawl/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string };
      if (status.status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { mostRecentSuccess } = await queueStatus(key);
    expect(mostRecentSuccess).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(Date.parse(mostRecentSuccess!)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(mostRecentSuccess!)).toBeLessThanOrEqual(Date.now());
  }, 60_000);
});
