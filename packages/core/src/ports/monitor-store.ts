/**
 * The MonitorStore port: a team's monitors (what to check, on which schedule, where to notify) and
 * the ids of their checks. A check itself is an agent job (`monitor_check`) in the JobStore; the
 * schedule's next tick is that job, created ahead with a delayed queue message (monitor-scheduler.ts).
 *
 * `nextCheckId` is the compare-and-set token of the schedule: of several processes that try to
 * move a monitor from one tick to the next, exactly one succeeds, so each tick runs once.
 *
 * Implementations: `SqliteMonitorStore`, `PostgresMonitorStore` (storage), `MemoryMonitorStore`
 * (core). All pass `describeMonitorStore` from core/src/ports/testing/monitor-store-suite.ts.
 */
export type MonitorStatus = 'active' | 'paused' | 'deleted';

export interface MonitorSchedule {
  /** Normalized cron expression (5 fields, or 6 with seconds). */
  cron: string;
  /** The natural-language form the monitor was created with, when it was. */
  text?: string;
  /** IANA time zone the cron is read in. */
  timezone: string;
}

export interface MonitorSummary {
  totalPages: number;
  same: number;
  changed: number;
  new: number;
  removed: number;
  error: number;
}

export interface MonitorRecord {
  id: string;
  teamId: string;
  name: string;
  status: MonitorStatus;
  schedule: MonitorSchedule;
  /** The targets as validated (scrape URLs or a crawl), each with its `id`. */
  targets: Array<Record<string, unknown> & { id: string; type: 'scrape' | 'crawl' }>;
  webhook: { url: string; headers?: Record<string, string>; metadata?: Record<string, string>; events?: string[] } | null;
  notification: Record<string, unknown> | null;
  retentionDays: number;
  goal: string | null;
  judgeEnabled: boolean;
  createdAt: number;
  updatedAt: number;
  /** The queued check of the next tick (a job id), or null when none is scheduled. */
  nextCheckId: string | null;
  nextRunAt: number | null;
  lastRunAt: number | null;
  lastCheckSummary: MonitorSummary | null;
}

export interface MonitorStore {
  createMonitor(monitor: MonitorRecord): Promise<void>;
  /** The monitor, deleted ones included, or undefined. */
  getMonitor(id: string): Promise<MonitorRecord | undefined>;
  /** A team's monitors that are not deleted, newest first. */
  listMonitors(teamId: string, limit: number, offset: number): Promise<MonitorRecord[]>;
  /**
   * Writes the monitor. With `expectedNextCheckId` (null included), only when the stored
   * `nextCheckId` is that value (compare-and-set); returns whether it was written.
   */
  saveMonitor(monitor: MonitorRecord, expectedNextCheckId?: string | null): Promise<boolean>;
  /** Records a check of a monitor (its job id). Recording it twice keeps one. */
  addCheck(monitorId: string, checkId: string, createdAt: number): Promise<void>;
  /** Check ids of a monitor, newest first. */
  listChecks(monitorId: string, limit: number, offset: number): Promise<string[]>;
  /** Monitors of every team with status `active` (for the schedule's reconciler). */
  listActive(): Promise<MonitorRecord[]>;
}
