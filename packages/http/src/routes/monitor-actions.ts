import {
  applyMonitorUpdate,
  checkWebhookUrl,
  NotFoundError,
  parseCreateMonitor,
  ValidationError,
  type AgentState,
  type JobRecord,
  type MonitorCheckState,
  type MonitorRecord,
  type MonitorRules,
} from '@quarry/core';
import { pageQuery } from '../server/body.js';
import type { Caller } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { checkPages, checkView, monitorView } from './monitor-views.js';

/**
 * What a caller can do with monitors, shared by the REST routes (monitor-routes.ts) and the MCP
 * tools: create, list, get, update, delete, run now, and read checks. Another team's monitor (or
 * check) is not found, like an unknown id.
 */
export function monitorActions(services: Services) {
  const { clock, ids } = services;
  const { monitors, monitorScheduler: scheduler } = services;
  const rules = (): MonitorRules => ({
    minIntervalSeconds: services.config.QUARRY_MONITOR_MIN_INTERVAL_SECONDS,
    checkWebhookUrl: (url) => void checkWebhookUrl(url, { allowHttp: services.config.QUARRY_WEBHOOK_ALLOW_HTTP, field: 'webhook.url' }),
    now: clock.now(),
  });

  const ownMonitor = async (caller: Caller, id: string): Promise<MonitorRecord> => {
    const monitor = await monitors.getMonitor(id);
    if (!monitor || monitor.status === 'deleted' || monitor.teamId !== caller.teamId) throw new NotFoundError('Monitor not found');
    return monitor;
  };

  const checkOf = async (job: JobRecord) => {
    const saved = (await services.jobStore.getJobState(job.id))?.value as AgentState<MonitorCheckState> | undefined;
    return { job, saved, view: checkView(job, saved) };
  };

  return {
    async create(caller: Caller, body: unknown) {
      const monitor = parseCreateMonitor(body, { id: ids.next(), teamId: caller.teamId, ids, rules: rules() });
      await monitors.createMonitor(monitor);
      const scheduled = await scheduler.scheduleNext(monitor, null, clock.now());
      return { success: true, data: monitorView(scheduled ?? (await monitors.getMonitor(monitor.id)) ?? monitor) };
    },

    async list(caller: Caller, query: unknown) {
      const { limit, offset } = listQuery(query);
      const list = await monitors.listMonitors(caller.teamId, limit, offset);
      return { success: true, data: list.map(monitorView) };
    },

    async get(caller: Caller, id: string) {
      return { success: true, data: monitorView(await ownMonitor(caller, id)) };
    },

    async update(caller: Caller, id: string, body: unknown) {
      const monitor = await ownMonitor(caller, id);
      applyMonitorUpdate(monitor, body, { ids, rules: rules() }); // a bad body is a 400 before anything changes
      const saved = await scheduler.replaceSchedule((current) => applyMonitorUpdate(current, body, { ids, rules: rules() }).monitor, monitor.id);
      if (!saved) throw new NotFoundError('Monitor not found');
      return { success: true, data: monitorView(saved) };
    },

    async remove(caller: Caller, id: string) {
      const monitor = await ownMonitor(caller, id);
      await scheduler.replaceSchedule((current) => ({ ...current, status: 'deleted', updatedAt: clock.now() }), monitor.id);
      return { success: true };
    },

    async run(caller: Caller, id: string) {
      const monitor = await ownMonitor(caller, id);
      await services.billing.requireCredits(caller.teamId, 1);
      const job = await scheduler.runNow(monitor);
      return { success: true, data: (await checkOf(job)).view };
    },

    async checks(caller: Caller, id: string, query: unknown) {
      const monitor = await ownMonitor(caller, id);
      const { limit, offset } = listQuery(query);
      const checks = [];
      for (const checkId of await monitors.listChecks(monitor.id, limit, offset)) {
        const job = await services.jobStore.getJob(checkId);
        // A tick replaced before it ran (the schedule changed) is not a check; one past its retention is gone.
        if (job && job.status !== 'cancelled' && job.expiresAt > clock.now()) checks.push((await checkOf(job)).view);
      }
      return { success: true, data: checks };
    },

    async check(caller: Caller, id: string, checkId: string, query: unknown) {
      const monitor = await ownMonitor(caller, id);
      const job = await services.jobStore.getJob(checkId);
      if (job?.kind !== 'monitor_check' || job.teamId !== monitor.teamId || job.expiresAt <= clock.now() || job.request.monitorId !== monitor.id) {
        throw new NotFoundError('Check not found');
      }
      const { skip, limit } = pageQuery(query);
      const status = ((query ?? {}) as { status?: string }).status;
      const { saved, view } = await checkOf(job);
      const [documents, errors] = await Promise.all([services.jobStore.listDocuments(job.id, 0, 10_000), services.jobStore.listErrors(job.id)]);
      const pages = checkPages(documents, errors, saved?.program).filter((page) => !status || page.status === status);
      const end = limit === undefined ? pages.length : skip + limit;
      return { success: true, data: { ...view, pages: pages.slice(skip, end), next: null } };
    },
  };
}

export type MonitorActions = ReturnType<typeof monitorActions>;

function listQuery(query: unknown): { limit: number; offset: number } {
  const record = (query ?? {}) as Record<string, string | number | undefined>;
  const read = (field: 'limit' | 'offset', fallback: number, minimum: number, maximum: number) => {
    const raw = record[field];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < minimum || value > maximum) {
      throw new ValidationError(`\`${field}\` must be an integer from ${minimum} to ${maximum}; got ${JSON.stringify(raw)}`, field);
    }
    return value;
  };
  return { limit: read('limit', 50, 1, 100), offset: read('offset', 0, 0, 1_000_000) };
}
