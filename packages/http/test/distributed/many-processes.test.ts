import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor, type TestServer } from '@quarry/core/testing';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';
import { json, startTokenSite, tokensOf } from './test-site.js';

/**
 * Two API processes and three workers on one machine serve one crawl and several batch jobs at
 * once: every page once in every job, and one webhook per event (a delivery may repeat only with
 * the same webhookId, the documented at-least-once), each job's started event before all its
 * others and its completed event after them. Runs the built CLI (npm test builds first).
 */
const available = await areBackingServicesAvailable();
const pageCount = 40;
const batchSize = 10;

describe.runIf(available)('two API processes and three workers', () => {
  const env = { ...isolatedEnv(), QUARRY_WEBHOOK_ALLOW_HTTP: 'true', QUARRY_RECONCILE_INTERVAL_MS: '1000' };
  const processes: QuarryProcess[] = [];
  const received: Array<Record<string, any>> = [];
  let site: TestServer;
  let receiver: Server;
  let hookUrl: string;

  beforeAll(async () => {
    site = await startTokenSite(pageCount, 30);
    receiver = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => (raw += chunk));
      request.on('end', () => {
        received.push(JSON.parse(raw) as Record<string, any>);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  });
  afterAll(async () => {
    await stopAll(processes);
    await site?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await dropIsolated(env);
  });

  it('shares the jobs and sends each webhook once', async () => {
    const apis = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    processes.push(...apis, ...(await Promise.all([1, 2, 3].map(() => startWorkerProcess(env, 4)))));
    const post = (apiIndex: number, path: string, body: unknown) =>
      json(`${apis[apiIndex % 2]!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const crawl = await post(0, '/v2/crawl', { url: `${site.url}/p/0`, crawlEntireDomain: true, sitemap: 'skip', webhook: { url: hookUrl } });
    const batches = await Promise.all(
      [0, 1, 2].map((batch) =>
        post(batch + 1, '/v2/batch/scrape', {
          urls: Array.from({ length: batchSize }, (_, index) => `${site.url}/p/${batch * batchSize + index}`),
          webhook: { url: hookUrl },
        }),
      ),
    );
    const jobs = [
      { id: crawl.id as string, path: 'crawl', pages: pageCount },
      ...batches.map((batch) => ({ id: batch.id as string, path: 'batch/scrape', pages: batchSize })),
    ];

    for (const [index, job] of jobs.entries()) {
      const done = await waitFor(
        async () => {
          const status = await json(`${apis[index % 2]!.url}/v2/${job.path}/${job.id}?limit=1000`);
          return status.status === 'completed' ? status : undefined;
        },
        { timeoutMs: 90_000, message: `${job.path} ${job.id}` },
      );
      const tokens = tokensOf(done.data);
      expect(new Set(tokens).size).toBe(job.pages);
      expect(tokens).toHaveLength(job.pages);
      expect(done.creditsUsed).toBe(job.pages);
    }

    for (const job of jobs) {
      const kind = job.path === 'crawl' ? 'crawl' : 'batch_scrape';
      // Events in arrival order, as they stood when the first completed event arrived.
      const { events, completedAt } = await waitFor(() => {
        const list = received.filter((event) => event.id === job.id);
        const first = list.findIndex((event) => event.type === `${kind}.completed`);
        return first >= 0 ? { events: list, completedAt: first } : undefined;
      });
      // Started is the job's first event: no page arrives before it.
      expect(events[0]?.type).toBe(`${kind}.started`);
      // Completed is the job's last event: no page arrives after it (only a redelivery of it may),
      // and every page counted below had arrived when it did.
      expect(events.slice(completedAt + 1).filter((event) => event.type !== `${kind}.completed`)).toEqual([]);
      const distinct = new Map(events.map((event) => [event.webhookId as string, event]));
      const ofType = (type: string) => [...distinct.values()].filter((event) => event.type === `${kind}.${type}`);
      expect(ofType('started')).toHaveLength(1);
      expect(ofType('completed')).toHaveLength(1);
      const pageTokens = tokensOf(ofType('page').map((event) => event.data[0]));
      expect(pageTokens).toHaveLength(job.pages);
      expect(new Set(pageTokens).size).toBe(job.pages);
    }
  }, 180_000);
});
