import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';
import { json } from './test-site.js';

/**
 * Limits that hold across worker processes (shared in Redis): a crawl's maxConcurrency, a crawl's
 * delay between pages, and a team's concurrency. Three workers of 4 pages each would go to 12 at
 * once; the site counts what actually arrives. Runs the built CLI (npm test builds first).
 */
const available = await areBackingServicesAvailable();

describe.runIf(available)('limits shared by every worker process', () => {
  const env = { ...isolatedEnv(), QUARRY_TEAM_CONCURRENCY: '3', QUARRY_RECONCILE_INTERVAL_MS: '1000' };
  const processes: QuarryProcess[] = [];
  let site: TestServer;
  let api: QuarryProcess;
  const inFlight = new Map<string, number>();
  const peaks = new Map<string, number>();
  const starts = new Map<string, number[]>();

  beforeAll(async () => {
    // Pages under /<group>/: the group is what a test measures (one crawl or one team's jobs).
    site = await startTestServer(async (_request, response, url) => {
      const group = url.pathname.split('/')[1] ?? '';
      inFlight.set(group, (inFlight.get(group) ?? 0) + 1);
      peaks.set(group, Math.max(peaks.get(group) ?? 0, inFlight.get(group)!));
      starts.set(group, [...(starts.get(group) ?? []), Date.now()]);
      await new Promise((resolve) => setTimeout(resolve, 120));
      inFlight.set(group, inFlight.get(group)! - 1);
      const index = Number(/(\d+)$/.exec(url.pathname)?.[1] ?? 0);
      const links = Array.from({ length: 10 }, (_, next) => `<a href="/${group}/p${(index * 3 + next) % 24}">next</a>`).join(' ');
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        `<html><head><title>${group} ${index}</title></head><body><main><h1>${group} page ${index}</h1><p>Text of page ${index}, long enough to be content.</p>${links}</main></body></html>`,
      );
    });
    api = await startApiProcess(env);
    processes.push(api, ...(await Promise.all([1, 2, 3].map(() => startWorkerProcess(env, 4)))));
  }, 120_000);
  afterAll(async () => {
    await stopAll(processes);
    await site?.close();
    await dropIsolated(env);
  });

  const post = (path: string, body: unknown) =>
    json(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const finished = (path: string, id: string) =>
    waitFor(
      async () => {
        const status = await json(`${api.url}/v2/${path}/${id}`);
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 90_000, message: `${path} ${id}` },
    );

  it("holds a crawl's maxConcurrency across three workers", async () => {
    const crawl = await post('/v2/crawl', {
      url: `${site.url}/mc/p0`,
      crawlEntireDomain: true,
      sitemap: 'skip',
      ignoreRobotsTxt: true,
      maxConcurrency: 2,
      limit: 24,
    });
    const done = await finished('crawl', crawl.id);
    expect(done.completed).toBe(24);
    expect(peaks.get('mc')).toBe(2);
  }, 120_000);

  it("spaces a crawl's pages by its delay across three workers", async () => {
    const crawl = await post('/v2/crawl', { url: `${site.url}/slow/p0`, crawlEntireDomain: true, sitemap: 'skip', ignoreRobotsTxt: true, delay: 1, limit: 5 });
    await finished('crawl', crawl.id);
    const times = starts.get('slow')!;
    expect(times).toHaveLength(5);
    expect(peaks.get('slow')).toBe(1);
    // Each page starts at least the delay after the previous one ended (120 ms per page here).
    for (let index = 1; index < times.length; index++) expect(times[index]! - times[index - 1]!).toBeGreaterThanOrEqual(1_000);
  }, 120_000);

  it("holds the team's concurrency across its jobs and the three workers", async () => {
    const crawl = await post('/v2/crawl', { url: `${site.url}/team/p0`, crawlEntireDomain: true, sitemap: 'skip', ignoreRobotsTxt: true, limit: 24 });
    const batch = await post('/v2/batch/scrape', { urls: Array.from({ length: 8 }, (_, index) => `${site.url}/team/b${index}`) });
    await Promise.all([finished('crawl', crawl.id), finished('batch/scrape', batch.id)]);
    expect(peaks.get('team')).toBe(3);
  }, 120_000);
});
