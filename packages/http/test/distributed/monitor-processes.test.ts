import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { waitFor } from '@quarry/core/testing';
import { articlePage, startMutableSite, type MutableSite } from '../support/mutable-site.js';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';

/**
 * A monitor in the distributed mode with separate processes (the built CLI): an API process and
 * two workers. Its schedule lives in BullMQ and PostgreSQL, so each tick is checked exactly once
 * however many workers take work; killing every worker and starting a new one loses no schedule.
 */
const available = await areBackingServicesAvailable();

describe.runIf(available)('monitors on API and worker processes', () => {
  const processes: QuarryProcess[] = [];
  let env: ReturnType<typeof isolatedEnv> & Record<string, string>;
  let site: MutableSite;
  let api: QuarryProcess & { url: string };

  beforeAll(async () => {
    site = await startMutableSite({ '/watched': articlePage('Watched', ['Version one.']) });
    env = { ...isolatedEnv(), QUARRY_RECONCILE_INTERVAL_MS: '1000', QUARRY_MONITOR_MIN_INTERVAL_SECONDS: '1' };
    api = (await startApiProcess(env)) as QuarryProcess & { url: string };
    processes.push(api, await startWorkerProcess(env, 2), await startWorkerProcess(env, 2));
  });

  afterAll(async () => {
    await stopAll(processes);
    await site?.close();
    if (env) await dropIsolated(env);
  });

  it('checks each tick once with two workers, and keeps the schedule when every worker is replaced', async () => {
    const firecrawl = new Firecrawl({ apiKey: '', apiUrl: api.url });
    const monitor = await firecrawl.createMonitor({
      name: 'watched',
      schedule: { cron: '*/2 * * * * *' },
      targets: [{ type: 'scrape', urls: [`${site.url}/watched`] }],
    });
    const completed = async () => (await firecrawl.listMonitorChecks(monitor.id, { limit: 100 })).filter((check) => check.status === 'completed');
    await waitFor(async () => (await completed()).length >= 4, { timeoutMs: 40_000, message: 'four checks' });

    site.set('/watched', articlePage('Watched', ['Version two.']));
    await waitFor(async () => (await completed()).some((check) => check.summary.changed === 1), { timeoutMs: 20_000, message: 'a changed check' });

    // Every worker dies; a new one picks the schedule up from Redis and PostgreSQL.
    const before = (await completed()).length;
    await stopAll(processes.splice(1));
    processes.push(await startWorkerProcess(env, 2));
    await waitFor(async () => (await completed()).length >= before + 2, { timeoutMs: 40_000, message: 'checks after the workers were replaced' });

    await firecrawl.updateMonitor(monitor.id, { status: 'paused' });
    const checks = await completed();
    const ticks = checks.map((check) => check.scheduledFor);
    expect(new Set(ticks).size).toBe(ticks.length);
    expect(ticks.every((tick) => Date.parse(tick!) % 2_000 === 0)).toBe(true);
    // One scrape per check: the page was fetched exactly as many times as checks ran.
    const ran = checks.filter((check) => check.summary.totalPages === 1).length;
    expect(ran).toBe(checks.length);
    await waitFor(async () => (await firecrawl.listMonitorChecks(monitor.id, { limit: 100 })).every((check) => check.status !== 'running'), {
      message: 'last check done',
    });
    const all = (await completed()).filter((check) => check.summary.totalPages === 1).length;
    expect(site.hits('/watched')).toBe(all);
  });
});
