import type { MonitorRecord, MonitorStore } from '../ports/monitor-store.js';

/** A MonitorStore in memory, for library use and tests. Nothing survives the process. */
export class MemoryMonitorStore implements MonitorStore {
  private readonly monitors = new Map<string, MonitorRecord>();
  private readonly checks = new Map<string, Array<{ id: string; createdAt: number; seq: number }>>();
  private seq = 0;

  async createMonitor(monitor: MonitorRecord): Promise<void> {
    this.monitors.set(monitor.id, structuredClone(monitor));
  }

  async getMonitor(id: string): Promise<MonitorRecord | undefined> {
    const monitor = this.monitors.get(id);
    return monitor ? structuredClone(monitor) : undefined;
  }

  async listMonitors(teamId: string, limit: number, offset: number): Promise<MonitorRecord[]> {
    return [...this.monitors.values()]
      .filter((monitor) => monitor.teamId === teamId && monitor.status !== 'deleted')
      .reverse()
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(offset, offset + limit)
      .map((monitor) => structuredClone(monitor));
  }

  async saveMonitor(monitor: MonitorRecord, expectedNextCheckId?: string | null): Promise<boolean> {
    const current = this.monitors.get(monitor.id);
    if (!current) return false;
    if (expectedNextCheckId !== undefined && current.nextCheckId !== expectedNextCheckId) return false;
    this.monitors.set(monitor.id, structuredClone(monitor));
    return true;
  }

  async addCheck(monitorId: string, checkId: string, createdAt: number): Promise<void> {
    const list = this.checks.get(monitorId) ?? [];
    if (!list.some((check) => check.id === checkId)) list.push({ id: checkId, createdAt, seq: this.seq++ });
    this.checks.set(monitorId, list);
  }

  async listChecks(monitorId: string, limit: number, offset: number): Promise<string[]> {
    return [...(this.checks.get(monitorId) ?? [])]
      .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq)
      .slice(offset, offset + limit)
      .map((check) => check.id);
  }

  async listActive(): Promise<MonitorRecord[]> {
    return [...this.monitors.values()].filter((monitor) => monitor.status === 'active').map((monitor) => structuredClone(monitor));
  }
}
