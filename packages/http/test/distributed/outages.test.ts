import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type TestServer } from '@quarry/core/testing';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv, testDatabaseUrl, testRedisUrl } from './backing-services.js';
import { postgresServerAvailable, redisServerAvailable, startPrivatePostgres, startPrivateRedis, type PrivateServer } from './private-servers.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';
import { json, startCrawl, startTokenSite, tokensOf } from './test-site.js';

/**
 * Redis restarted without its data, and PostgreSQL stopped for a while, in the middle of a crawl
 * served by real API and worker processes. Each outage happens to a private server of this test
 * (the machine's shared servers are never stopped). Runs the built CLI (npm test builds first).
 */
const available = await areBackingServicesAvailable();
const missing = [redisServerAvailable(), postgresServerAvailable()].filter(Boolean).join('; ');
if (available && missing) {
  if (process.env.CI === 'true') throw new Error(`Outage tests need private servers: ${missing}`);
  console.warn(`\n!!! SKIPPING outage tests: ${missing}.\n`);
}
const pageCount = 40;
const faster = { QUARRY_LEASE_MS: '3000', QUARRY_RECONCILE_INTERVAL_MS: '1000' };

describe.runIf(available && !missing)('outages of the backing services', () => {
  let site: TestServer;
  let processes: QuarryProcess[] = [];
  let server: PrivateServer | undefined;
  let env: ReturnType<typeof isolatedEnv> | undefined;

  beforeAll(async () => {
    site = await startTokenSite(pageCount, 60);
  });
  afterEach(async () => {
    await stopAll(processes);
    processes = [];
    if (server) await server.start().catch(() => undefined); // up again, to clean up
    if (env) await dropIsolated(env).catch(() => undefined);
    await server?.destroy();
    server = undefined;
  });
  afterAll(async () => {
    await site?.close();
  });

  const completion = (apiUrl: string, id: string, worker: QuarryProcess) =>
    waitFor(
      async () => {
        const status = await json(`${apiUrl}/v2/crawl/${id}?limit=1000`);
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 90_000, message: 'crawl completion' },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- worker output:\n${worker.output()}`);
    });

  const expectEveryPageOnce = (done: Record<string, any>) => {
    const tokens = tokensOf(done.data);
    expect(new Set(tokens).size).toBe(pageCount);
    expect(tokens).toHaveLength(pageCount);
    expect(done.completed).toBe(pageCount);
    expect(done.creditsUsed).toBe(pageCount);
  };

  it('restores the work from PostgreSQL after Redis restarts empty', async () => {
    server = await startPrivateRedis();
    env = { ...isolatedEnv(testDatabaseUrl, server.url), ...faster };
    const api = await startApiProcess(env);
    const worker = await startWorkerProcess(env, 3);
    processes.push(api, worker, await startWorkerProcess(env, 3));
    const id = await startCrawl(api.url!, `${site.url}/p/0`);
    await waitFor(async () => (await json(`${api.url}/v2/crawl/${id}`)).completed >= 8, { timeoutMs: 30_000, message: 'first pages' });

    await server.stop(); // redis-cli shutdown nosave: every message and lease is gone
    const before = await json(`${api.url}/v2/crawl/${id}`); // PostgreSQL still answers
    expect(before.completed).toBeLessThan(pageCount);
    await server.start();

    expectEveryPageOnce(await completion(api.url!, id, worker));
  }, 150_000);

  it('answers 503 while PostgreSQL is down, and recovers by itself', async () => {
    server = await startPrivatePostgres();
    env = { ...isolatedEnv(server.url, testRedisUrl), ...faster };
    const api = await startApiProcess(env);
    const worker = await startWorkerProcess(env, 3);
    processes.push(api, worker);
    const id = await startCrawl(api.url!, `${site.url}/p/0`);
    await waitFor(async () => (await json(`${api.url}/v2/crawl/${id}`)).completed >= 5, { timeoutMs: 30_000, message: 'first pages' });

    await server.stop();
    for (const request of [
      fetch(`${api.url}/v2/crawl/${id}`),
      fetch(`${api.url}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: `${site.url}/p/1` }) }),
    ]) {
      const response = await request;
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({
        success: false,
        code: 'UNAVAILABLE',
        error: expect.stringMatching(/^The database is unavailable \(.+\); retry in a few seconds$/),
      });
    }
    await server.start();

    await waitFor(async () => (await fetch(`${api.url}/v2/crawl/${id}`)).status === 200, { timeoutMs: 30_000, message: 'API recovery' });
    expectEveryPageOnce(await completion(api.url!, id, worker));
  }, 150_000);
});
