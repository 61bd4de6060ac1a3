/**
 * Conformance suite for the MonitorStore port. Every store runs it once with a factory that
 * returns an empty store: `describeMonitorStore('SqliteMonitorStore', () => storage().monitors)`.
 */
import { describe, expect, it } from 'vitest';
import type { MonitorRecord, MonitorStore } from '../monitor-store.js';

export function monitorRecord(id: string, overrides: Partial<MonitorRecord> = {}): MonitorRecord {
  return {
    id,
    teamId: 'team-a',
    name: `monitor ${id}`,
    status: 'active',
    schedule: { cron: '*/5 * * * *', timezone: 'UTC' },
    targets: [{ id: 't1', type: 'scrape', urls: ['https://example.com/'] }],
    webhook: { url: 'https://hooks.example/in', metadata: { run: 'x' } },
    notification: null,
    retentionDays: 30,
    goal: null,
    judgeEnabled: false,
    createdAt: 1_000,
    updatedAt: 1_000,
    nextCheckId: null,
    nextRunAt: null,
    lastRunAt: null,
    lastCheckSummary: null,
    ...overrides,
  };
}

export function describeMonitorStore(name: string, make: () => MonitorStore | Promise<MonitorStore>): void {
  describe(`MonitorStore conformance: ${name}`, () => {
    it('stores and reads a monitor as written; unknown ids are undefined', async () => {
      const store = await make();
      const monitor = monitorRecord('m1', { lastCheckSummary: { totalPages: 1, same: 1, changed: 0, new: 0, removed: 0, error: 0 } });
      await store.createMonitor(monitor);
      expect(await store.getMonitor('m1')).toEqual(monitor);
      expect(await store.getMonitor('nope')).toBeUndefined();
    });

    it("lists a team's monitors newest first, without deleted ones or other teams'", async () => {
      const store = await make();
      await store.createMonitor(monitorRecord('old', { createdAt: 1 }));
      await store.createMonitor(monitorRecord('new', { createdAt: 3 }));
      await store.createMonitor(monitorRecord('gone', { createdAt: 2, status: 'deleted' }));
      await store.createMonitor(monitorRecord('theirs', { teamId: 'team-b' }));
      expect((await store.listMonitors('team-a', 10, 0)).map((monitor) => monitor.id)).toEqual(['new', 'old']);
      expect((await store.listMonitors('team-a', 1, 1)).map((monitor) => monitor.id)).toEqual(['old']);
      expect((await store.listActive()).map((monitor) => monitor.id).sort()).toEqual(['new', 'old', 'theirs']);
    });

    it('saves with a compare-and-set on nextCheckId (null included)', async () => {
      const store = await make();
      await store.createMonitor(monitorRecord('m1'));
      expect(await store.saveMonitor(monitorRecord('m1', { nextCheckId: 'c1', nextRunAt: 5 }), null)).toBe(true);
      expect(await store.saveMonitor(monitorRecord('m1', { nextCheckId: 'c2' }), null)).toBe(false);
      expect(await store.saveMonitor(monitorRecord('m1', { nextCheckId: 'c2' }), 'c0')).toBe(false);
      expect(await store.saveMonitor(monitorRecord('m1', { nextCheckId: 'c2', name: 'renamed' }), 'c1')).toBe(true);
      expect(await store.getMonitor('m1')).toMatchObject({ nextCheckId: 'c2', name: 'renamed' });
      expect(await store.saveMonitor(monitorRecord('m1', { nextCheckId: null, status: 'paused' }))).toBe(true);
      expect(await store.getMonitor('m1')).toMatchObject({ nextCheckId: null, status: 'paused' });
      expect(await store.saveMonitor(monitorRecord('unknown'))).toBe(false);
    });

    it('lets exactly one of concurrent savers move the same tick', async () => {
      const store = await make();
      await store.createMonitor(monitorRecord('m1', { nextCheckId: 'c1' }));
      const results = await Promise.all(['a', 'b', 'c', 'd'].map((next) => store.saveMonitor(monitorRecord('m1', { nextCheckId: next }), 'c1')));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('records checks once, newest first, per monitor', async () => {
      const store = await make();
      await store.addCheck('m1', 'c1', 10);
      await store.addCheck('m1', 'c2', 20);
      await store.addCheck('m1', 'c1', 30);
      await store.addCheck('m2', 'c3', 40);
      expect(await store.listChecks('m1', 10, 0)).toEqual(['c2', 'c1']);
      expect(await store.listChecks('m1', 1, 1)).toEqual(['c1']);
      expect(await store.listChecks('m3', 10, 0)).toEqual([]);
    });
  });
}
