import type { MonitorRecord, MonitorStore } from '@quarry/core';
import type { PostgresDatabase } from './postgres-database.js';

/**
 * MonitorStore on PostgreSQL (migration 6): the monitor as JSON in `body`; `next_check_id` is
 * compared in the UPDATE itself, so of two workers moving the same tick exactly one wins.
 */
export class PostgresMonitorStore implements MonitorStore {
  constructor(private readonly db: PostgresDatabase) {}

  async createMonitor(monitor: MonitorRecord): Promise<void> {
    await this.db.execute('INSERT INTO monitors (id, team_id, status, created_at, next_check_id, body) VALUES ($1, $2, $3, $4, $5, $6)', [
      monitor.id,
      monitor.teamId,
      monitor.status,
      monitor.createdAt,
      monitor.nextCheckId,
      JSON.stringify(monitor),
    ]);
  }

  async getMonitor(id: string): Promise<MonitorRecord | undefined> {
    const [row] = await this.db.query<{ body: string }>('SELECT body FROM monitors WHERE id = $1', [id]);
    return row ? (JSON.parse(row.body) as MonitorRecord) : undefined;
  }

  async listMonitors(teamId: string, limit: number, offset: number): Promise<MonitorRecord[]> {
    const rows = await this.db.query<{ body: string }>(
      `SELECT body FROM monitors WHERE team_id = $1 AND status <> 'deleted' ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [teamId, limit, offset],
    );
    return rows.map((row) => JSON.parse(row.body) as MonitorRecord);
  }

  async saveMonitor(monitor: MonitorRecord, expectedNextCheckId?: string | null): Promise<boolean> {
    const values = [monitor.status, monitor.nextCheckId, JSON.stringify(monitor), monitor.id];
    if (expectedNextCheckId === undefined)
      return (await this.db.execute('UPDATE monitors SET status = $1, next_check_id = $2, body = $3 WHERE id = $4', values)) > 0;
    const changed = await this.db.execute(
      'UPDATE monitors SET status = $1, next_check_id = $2, body = $3 WHERE id = $4 AND next_check_id IS NOT DISTINCT FROM $5',
      [...values, expectedNextCheckId],
    );
    return changed > 0;
  }

  async addCheck(monitorId: string, checkId: string, createdAt: number): Promise<void> {
    await this.db.execute('INSERT INTO monitor_checks (monitor_id, check_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (check_id) DO NOTHING', [
      monitorId,
      checkId,
      createdAt,
    ]);
  }

  async listChecks(monitorId: string, limit: number, offset: number): Promise<string[]> {
    const rows = await this.db.query<{ check_id: string }>(
      'SELECT check_id FROM monitor_checks WHERE monitor_id = $1 ORDER BY created_at DESC, seq DESC LIMIT $2 OFFSET $3',
      [monitorId, limit, offset],
    );
    return rows.map((row) => row.check_id);
  }

  async listActive(): Promise<MonitorRecord[]> {
    const rows = await this.db.query<{ body: string }>(`SELECT body FROM monitors WHERE status = 'active' ORDER BY created_at`);
    return rows.map((row) => JSON.parse(row.body) as MonitorRecord);
  }
}
