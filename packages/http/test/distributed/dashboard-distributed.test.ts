import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/compose.js';
import { composeDistributed } from '../../src/compose-distributed.js';
import { startServer, type RunningServer } from '../../src/server/start-server.js';
import { DashboardClient } from '../support/dashboard-client.js';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';

// The embedded server's dashboard security suite, unchanged, against API + workers on PostgreSQL and Redis.
vi.mock('../support/quarry-server.js', () => import('./distributed-quarry-server.js'));

const available = await areBackingServicesAvailable();
if (available) await import('../dashboard-security.test.js');

/**
 * Two API processes on one PostgreSQL schema: the admin token made at the first start is printed
 * by exactly one of them, and a session opened on one is accepted by the other (the session key
 * is shared through the ledger), so a load balancer may send each request anywhere.
 */
describe.runIf(available)('the dashboard across API processes', () => {
  const isolated = isolatedEnv();
  const servers: Array<{ running: RunningServer; log: () => string }> = [];

  async function startApi() {
    let log = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString('utf8');
        done();
      },
    });
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...isolated });
    const parts = await composeDistributed(config, 'api');
    const running = await startServer(parts.services, config, { close: parts.close, logger: { level: 'info', stream } });
    servers.push({ running, log: () => log });
    return running;
  }

  beforeAll(async () => {
    await Promise.all([startApi(), startApi()]);
  }, 60_000);

  afterAll(async () => {
    for (const server of servers) await server.running.close();
    await dropIsolated(isolated);
  });

  it('prints the generated admin token in exactly one process, and both accept each other’s sessions', async () => {
    const pattern = /admin token \(shown only this once; stored hashed\): (qa-[\w-]+)/;
    const printed = servers.map((server) => pattern.exec(server.log())?.[1]).filter(Boolean);
    expect(printed).toHaveLength(1);
    const token = printed[0]!;
    const [first, second] = servers.map((server) => server.running.url) as [string, string];

    const admin = new DashboardClient(first);
    expect((await admin.signIn(token)).status).toBe(303);
    const onSecond = new DashboardClient(second);
    for (const [name, value] of admin.cookies) onSecond.cookies.set(name, value);
    const teams = await onSecond.page('/dashboard/admin');
    expect(teams.status).toBe(200);
    const created = await onSecond.post('/dashboard/admin/teams', { _csrf: await admin.csrf(), name: 'shared', credits: '10', keyName: 'first' });
    expect(created.status).toBe(200);
    const key = /id="new-key" class="secret">(fc-[0-9a-f]{40})</.exec(await created.text())![1]!;

    const team = new DashboardClient(second);
    expect((await team.signIn(key)).status).toBe(303);
    const onFirst = new DashboardClient(first);
    for (const [name, value] of team.cookies) onFirst.cookies.set(name, value);
    expect((await onFirst.page('/dashboard/keys')).text).toContain('first');
  });
});
