import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { waitFor } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * Monitors through the official SDK and plain HTTP on the embedded default: a page checked on a
 * short schedule (the operator's minimum lowered for the test) says new, then same, then changed
 * with its diff; the webhook hears of changes only; checks are charged like scrapes; another
 * team's monitor is a 404; bad input is a 400 naming the field; pause, run now, delete; the
 * schedule survives a restart (it lives in the queue and the database).
 */
let site: MutableSite;
let quarry: TestQuarry;
let receiver: Server;
let receiverUrl: string;
let keyA: string;
let keyB: string;
let acme: Firecrawl;
const hooks: Array<{ body: Record<string, any>; headers: Record<string, unknown> }> = [];
const env = {
  QUARRY_RATE_LIMITS: 'crawl=1000',
  QUARRY_MONITOR_MIN_INTERVAL_SECONDS: '1',
  QUARRY_WEBHOOK_ALLOW_HTTP: 'true',
  QUARRY_WEBHOOK_SECRET: 'monitor-secret',
};

beforeAll(async () => {
  site = await startMutableSite();
  receiver = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      hooks.push({ body: JSON.parse(raw), headers: request.headers });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  quarry = await startQuarry(env);
  await quarry.services.ledger.ensureTeam('acme', 'acme');
  await quarry.services.ledger.ensureTeam('other', 'other');
  await quarry.services.ledger.setCredits('acme', 1_000);
  keyA = (await quarry.services.ledger.createKey('acme', 'a')).key;
  keyB = (await quarry.services.ledger.createKey('other', 'b')).key;
  acme = new Firecrawl({ apiKey: keyA, apiUrl: quarry.url });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function call(method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${quarry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const completedChecks = async (monitorId: string) => (await acme.listMonitorChecks(monitorId, { limit: 100 })).filter((check) => check.status === 'completed');

describe('monitors', () => {
  it('checks a page on its schedule: new, same, then changed with the diff, and notifies on changes', async () => {
    site.set('/prices', articlePage('Prices', ['The basic plan costs 10 euros.']));
    const creditsBefore = (await quarry.services.ledger.getCredits('acme')) ?? 0;
    const monitor = await acme.createMonitor({
      name: 'prices',
      schedule: { cron: '*/2 * * * * *' },
      targets: [{ type: 'scrape', urls: [`${site.url}/prices`] }],
      webhook: { url: receiverUrl, metadata: { run: 'ci' } },
    });
    expect(monitor).toMatchObject({ name: 'prices', status: 'active', schedule: { cron: '*/2 * * * * *', timezone: 'UTC' }, retentionDays: 30 });
    expect(Date.parse(monitor.nextRunAt!)).toBeGreaterThan(Date.now() - 1_000);
    expect(monitor.targets[0]!.id).toEqual(expect.any(String));

    await waitFor(async () => (await completedChecks(monitor.id)).length >= 2, { timeoutMs: 20_000, message: 'two scheduled checks' });
    const checksSoFar = await completedChecks(monitor.id); // newest first
    const [first, second] = [checksSoFar.at(-1), checksSoFar.at(-2)];
    expect(first).toMatchObject({
      trigger: 'scheduled',
      monitorId: monitor.id,
      summary: { totalPages: 1, new: 1, same: 0 },
      actualCredits: 1,
      billingStatus: 'confirmed',
    });
    expect(second).toMatchObject({ summary: { totalPages: 1, new: 0, same: 1 } });
    // One check per tick: scheduled times are distinct and two seconds apart.
    expect(Date.parse(first!.scheduledFor!) % 2000).toBe(0);
    expect(Date.parse(second!.scheduledFor!)).toBeGreaterThan(Date.parse(first!.scheduledFor!));

    site.set('/prices', articlePage('Prices', ['The basic plan costs 12 euros.']));
    const changed = await waitFor(async () => (await completedChecks(monitor.id)).find((check) => check.summary.changed === 1), {
      timeoutMs: 20_000,
      message: 'a changed check',
    });
    const detail = await acme.getMonitorCheck(monitor.id, changed.id);
    expect(detail.pages).toHaveLength(1);
    expect(detail.pages[0]).toMatchObject({ url: `${site.url}/prices`, status: 'changed', targetId: monitor.targets[0]!.id, statusCode: 200 });
    expect(detail.pages[0]!.diff!.text).toContain('-The basic plan costs 10 euros.\n+The basic plan costs 12 euros.');

    const fresh = await acme.getMonitor(monitor.id);
    expect(fresh.lastCheckSummary).toMatchObject({ totalPages: 1 });
    expect(fresh.lastRunAt).toEqual(expect.any(String));

    // Webhooks: the first check (a new page) and the changed one, signed; never the unchanged ones.
    await waitFor(() => hooks.filter((hook) => hook.body.data?.[0]?.checkId === changed.id).length === 1, { message: 'the changed webhook' });
    const mine = hooks.filter((hook) => hook.body.data?.[0]?.monitorId === monitor.id);
    expect(mine.every((hook) => hook.body.type === 'monitor.check.completed' && hook.body.metadata.run === 'ci')).toBe(true);
    expect(mine.map((hook) => hook.body.data[0].checkId)).toContain(first!.id);
    expect(mine.map((hook) => hook.body.data[0].checkId)).not.toContain(second!.id);
    expect(mine[0]!.headers['x-firecrawl-signature']).toMatch(/^sha256=/);

    await acme.updateMonitor(monitor.id, { status: 'paused' });
    const checks = await acme.listMonitorChecks(monitor.id, { limit: 100 });
    expect(checks.every((check) => check.status !== 'queued')).toBe(true);
    // Charged one credit per checked page, like a scrape.
    const charged = checks.reduce((sum, check) => sum + (check.actualCredits ?? 0), 0);
    await waitFor(async () => (await quarry.services.ledger.getCredits('acme')) === creditsBefore - charged, { message: 'credits charged per page' });
  });

  it('checks a crawl target: the mapped pages of a site, up to its limit', async () => {
    site.set('/shop/', articlePage('Shop', ['Welcome.'], { links: ['/shop/a', '/shop/b', '/shop/c'] }));
    for (const name of ['a', 'b', 'c']) site.set(`/shop/${name}`, articlePage(`Item ${name}`, [`Item ${name} costs 1 euro.`]));
    const monitor = await acme.createMonitor({
      name: 'shop',
      schedule: { text: 'hourly' },
      targets: [{ type: 'crawl', url: `${site.url}/shop/`, crawlOptions: { limit: 3 } }],
    });
    const run = await acme.runMonitor(monitor.id);
    await waitFor(async () => (await acme.listMonitorChecks(monitor.id)).find((check) => check.id === run.id)?.status === 'completed', {
      message: 'crawl check',
    });
    const detail = await acme.getMonitorCheck(monitor.id, run.id);
    expect(detail.summary).toMatchObject({ totalPages: 3, new: 3 });
    expect(detail.pages.map((page) => page.url)).toContain(`${site.url}/shop/`);
    expect(detail.pages.every((page) => page.targetId === monitor.targets[0]!.id)).toBe(true);
    expect(detail.actualCredits).toBe(3);
    await acme.deleteMonitor(monitor.id);
  });

  it('records a page that cannot be fetched as an error, and charges nothing for it', async () => {
    site.set('/fine', articlePage('Fine', ['All good.']));
    const unreachable = 'http://127.0.0.1:1/down';
    const monitor = await acme.createMonitor({
      name: 'mixed',
      schedule: { text: 'daily' },
      targets: [{ type: 'scrape', urls: [`${site.url}/fine`, unreachable] }],
    });
    const run = await acme.runMonitor(monitor.id);
    await waitFor(async () => (await acme.listMonitorChecks(monitor.id)).find((check) => check.id === run.id)?.status === 'completed', {
      message: 'mixed check',
    });
    const detail = await acme.getMonitorCheck(monitor.id, run.id);
    expect(detail).toMatchObject({ summary: { totalPages: 2, new: 1, error: 1 }, actualCredits: 1 });
    expect(detail.pages.find((page) => page.url === unreachable)).toMatchObject({ status: 'error', error: expect.any(String) });
    expect((await acme.getMonitorCheck(monitor.id, run.id, { status: 'error' })).pages).toHaveLength(1);
    // Past its retention a check is gone from the history.
    await quarry.services.jobStore.updateJob(run.id, { expiresAt: Date.now() - 1 });
    expect((await acme.listMonitorChecks(monitor.id)).map((check) => check.id)).not.toContain(run.id);
    expect((await call('GET', `/v2/monitor/${monitor.id}/checks/${run.id}`, keyA)).status).toBe(404);
    await acme.deleteMonitor(monitor.id);
  });

  it('pauses, runs on demand, resumes, updates and deletes', async () => {
    site.set('/news', articlePage('News', ['Nothing yet.']));
    const monitor = await acme.createMonitor({
      name: 'news',
      schedule: { text: 'every 5 minutes' },
      targets: [{ type: 'scrape', urls: [`${site.url}/news`] }],
    });
    expect(monitor.schedule).toEqual({ cron: '*/5 * * * *', text: 'every 5 minutes', timezone: 'UTC' });
    const paused = await acme.updateMonitor(monitor.id, { status: 'paused' });
    expect(paused).toMatchObject({ status: 'paused', nextRunAt: null, currentCheckId: null });

    const run = await acme.runMonitor(monitor.id);
    expect(run).toMatchObject({ monitorId: monitor.id, trigger: 'manual' });
    await waitFor(async () => (await acme.listMonitorChecks(monitor.id)).find((check) => check.id === run.id)?.status === 'completed', {
      message: 'manual check',
    });
    const detail = await acme.getMonitorCheck(monitor.id, run.id);
    expect(detail.pages.map((page) => page.status)).toEqual(['new']);

    const resumed = await acme.updateMonitor(monitor.id, { status: 'active', name: 'news 2', schedule: { cron: '0 9 * * *', timezone: 'Europe/Paris' } });
    expect(resumed).toMatchObject({ status: 'active', name: 'news 2', schedule: { cron: '0 9 * * *', timezone: 'Europe/Paris' } });
    expect(new Date(resumed.nextRunAt!).getUTCMinutes()).toBe(0);
    expect((await acme.listMonitors()).map((entry) => entry.id)).toContain(monitor.id);

    expect(await acme.deleteMonitor(monitor.id)).toBe(true);
    expect((await call('GET', `/v2/monitor/${monitor.id}`, keyA)).status).toBe(404);
    expect((await acme.listMonitors()).map((entry) => entry.id)).not.toContain(monitor.id);
  });

  it("answers 404 for another team's monitor and its checks", async () => {
    site.set('/private', articlePage('Private', ['Mine.']));
    const monitor = await acme.createMonitor({ name: 'mine', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: [`${site.url}/private`] }] });
    const run = await acme.runMonitor(monitor.id);
    for (const [method, path, body] of [
      ['GET', `/v2/monitor/${monitor.id}`],
      ['PATCH', `/v2/monitor/${monitor.id}`, { name: 'stolen' }],
      ['DELETE', `/v2/monitor/${monitor.id}`],
      ['POST', `/v2/monitor/${monitor.id}/run`, {}],
      ['GET', `/v2/monitor/${monitor.id}/checks`],
      ['GET', `/v2/monitor/${monitor.id}/checks/${run.id}`],
    ] as const) {
      const answer = await call(method, path, keyB, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.success).toBe(false);
    }
    expect((await call('GET', '/v2/monitor', keyB)).body.data).toEqual([]);
    expect((await acme.getMonitor(monitor.id)).name).toBe('mine');
    await acme.deleteMonitor(monitor.id);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const target = { type: 'scrape', urls: [`${site.url}/x`] };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ schedule: { cron: '0 * * * *' }, targets: [target] }, 'name'],
      [{ name: 'x', schedule: {}, targets: [target] }, 'schedule'],
      [{ name: 'x', schedule: { cron: 'not a cron' }, targets: [target] }, 'schedule.cron'],
      [{ name: 'x', schedule: { text: 'whenever you like' }, targets: [target] }, 'schedule.text'],
      [{ name: 'x', schedule: { cron: '0 * * * *', timezone: 'Mars/Olympus' }, targets: [target] }, 'schedule.timezone'],
      [{ name: 'x', schedule: { cron: '0 * * * *' }, targets: [] }, 'targets'],
      [{ name: 'x', schedule: { cron: '0 * * * *' }, targets: [{ type: 'scrape', urls: ['not a url'] }] }, 'targets[0].urls[0]'],
      [{ name: 'x', schedule: { cron: '0 * * * *' }, targets: [{ type: 'search', queries: ['q'] }] }, 'targets[0].type'],
      [{ name: 'x', schedule: { cron: '0 * * * *' }, targets: [{ ...target, scrapeOptions: { timeout: -1 } }] }, 'targets[0].scrapeOptions.timeout'],
      [{ name: 'x', schedule: { cron: '0 * * * *' }, targets: [target], webhook: { url: 'ftp://hooks.example/x' } }, 'webhook.url'],
    ];
    for (const [body, field] of cases) {
      const answer = await call('POST', '/v2/monitor', keyA, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error, JSON.stringify(body)).toContain(`\`${field}`);
    }
    expect((await call('GET', '/v2/monitor?limit=0', keyA)).status).toBe(400);
  });

  it('refuses schedules under the operator minimum (5 minutes by default)', async () => {
    const strict = await startQuarry({ QUARRY_AUTH: 'off' });
    try {
      const answer = await fetch(`${strict.url}/v2/monitor`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'fast', schedule: { cron: '* * * * *' }, targets: [{ type: 'scrape', urls: [`${site.url}/x`] }] }),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: string }).error).toContain("`schedule.cron` runs every 60 s; this server's minimum interval is 300 s");
    } finally {
      await strict.close();
    }
  });

  it('lists its routes in the v2 OpenAPI document, with the request schemas that validate them', async () => {
    const v2 = (await (await fetch(`${quarry.url}/v2/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> };
    expect(Object.keys(v2.paths['/v2/monitor']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(v2.paths['/v2/monitor/{id}']!).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(v2.paths['/v2/monitor/{id}/run']!)).toEqual(['post']);
    expect(Object.keys(v2.paths['/v2/monitor/{id}/checks']!)).toEqual(['get']);
    expect(Object.keys(v2.paths['/v2/monitor/{id}/checks/{checkId}']!)).toEqual(['get']);
    const create = v2.paths['/v2/monitor']!.post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(expect.arrayContaining(['name', 'schedule', 'targets']));
    const v1 = (await (await fetch(`${quarry.url}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(v1.paths).some((path) => path.includes('monitor'))).toBe(false);
  });

  it('keeps its schedule across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'quarry-monitor-'));
    const first = await startQuarry({ ...env, QUARRY_AUTH: 'off' }, dataDir);
    site.set('/restart', articlePage('Restart', ['Still here.']));
    const client = (url: string) => new Firecrawl({ apiKey: '', apiUrl: url });
    let second: TestQuarry | undefined;
    try {
      const monitor = await client(first.url).createMonitor({
        name: 'restart',
        schedule: { cron: '*/2 * * * * *' },
        targets: [{ type: 'scrape', urls: [`${site.url}/restart`] }],
      });
      await first.close();
      const hitsAtStop = site.hits('/restart');
      second = await startQuarry({ ...env, QUARRY_AUTH: 'off' }, dataDir);
      const again = client(second.url);
      await waitFor(async () => (await again.listMonitorChecks(monitor.id)).filter((check) => check.status === 'completed').length >= 2, {
        timeoutMs: 20_000,
        message: 'checks after restart',
      });
      expect(site.hits('/restart')).toBeGreaterThan(hitsAtStop);
      await again.deleteMonitor(monitor.id);
    } finally {
      await second?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
