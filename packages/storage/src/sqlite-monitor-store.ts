import type { MonitorRecord, MonitorStore } from '@quarry/core';
import type { SqliteDatabase } from './open-sqlite.js';

/**
 * MonitorStore on SQLite (migration 9): the monitor as JSON in `body`, with the columns the
 * queries need beside it; `next_check_id` is compared in the UPDATE itself (compare-and-set).
 */
export class SqliteMonitorStore implements MonitorStore {
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.statements = {
      insert: db.prepare<[string, string, string, number, string | null, string]>(
        'INSERT INTO monitors (id, team_id, status, created_at, next_check_id, body) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      get: db.prepare<[string], { body: string }>('SELECT body FROM monitors WHERE id = ?'),
      list: db.prepare<[string, number, number], { body: string }>(
        `SELECT body FROM monitors WHERE team_id = ? AND status <> 'deleted' ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ),
      save: db.prepare<[string, string | null, string, string]>('UPDATE monitors SET status = ?, next_check_id = ?, body = ? WHERE id = ?'),
      saveIf: db.prepare<[string, string | null, string, string, string | null]>(
        'UPDATE monitors SET status = ?, next_check_id = ?, body = ? WHERE id = ? AND next_check_id IS ?',
      ),
      addCheck: db.prepare<[string, string, number]>(
        'INSERT INTO monitor_checks (monitor_id, check_id, created_at) VALUES (?, ?, ?) ON CONFLICT (check_id) DO NOTHING',
      ),
      listChecks: db.prepare<[string, number, number], { check_id: string }>(
        'SELECT check_id FROM monitor_checks WHERE monitor_id = ? ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?',
      ),
      active: db.prepare<[], { body: string }>(`SELECT body FROM monitors WHERE status = 'active' ORDER BY created_at`),
    };
  }

  async createMonitor(monitor: MonitorRecord): Promise<void> {
    this.statements.insert.run(monitor.id, monitor.teamId, monitor.status, monitor.createdAt, monitor.nextCheckId, JSON.stringify(monitor));
  }

  async getMonitor(id: string): Promise<MonitorRecord | undefined> {
    const row = this.statements.get.get(id);
    return row ? (JSON.parse(row.body) as MonitorRecord) : undefined;
  }

  async listMonitors(teamId: string, limit: number, offset: number): Promise<MonitorRecord[]> {
    return this.statements.list.all(teamId, limit, offset).map((row) => JSON.parse(row.body) as MonitorRecord);
  }

  async saveMonitor(monitor: MonitorRecord, expectedNextCheckId?: string | null): Promise<boolean> {
    const body = JSON.stringify(monitor);
    if (expectedNextCheckId === undefined) return this.statements.save.run(monitor.status, monitor.nextCheckId, body, monitor.id).changes > 0;
    return this.statements.saveIf.run(monitor.status, monitor.nextCheckId, body, monitor.id, expectedNextCheckId).changes > 0;
  }

  async addCheck(monitorId: string, checkId: string, createdAt: number): Promise<void> {
    this.statements.addCheck.run(monitorId, checkId, createdAt);
  }

  async listChecks(monitorId: string, limit: number, offset: number): Promise<string[]> {
    return this.statements.listChecks.all(monitorId, limit, offset).map((row) => row.check_id);
  }

  async listActive(): Promise<MonitorRecord[]> {
    return this.statements.active.all().map((row) => JSON.parse(row.body) as MonitorRecord);
  }
}
