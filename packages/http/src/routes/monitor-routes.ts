import type { FastifyInstance, FastifyRequest } from 'fastify';
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
import type { Services } from '../server/services.js';
import { checkPages, checkView, monitorView } from './monitor-views.js';
import { requireCredits } from './scrape-routes.js';

/**
 * Monitors (v2): create, list, get, update, delete, run now, and their checks. A route parses the
 * request and hands the schedule to the MonitorScheduler; each check is a `monitor_check` job,
 * charged like the scrapes it runs. Creating a monitor and running one count as crawls for the rate
 * limits; reading, changing and deleting as status reads. Another team's monitor (or check) answers 404 like an unknown id.
 */
export function monitorRoutes(app: FastifyInstance, services: Services) {
  const { clock, ids } = services.engine.parts;
  const { monitors, monitorScheduler: scheduler } = services;
  const rules = (): MonitorRules => ({
    minIntervalSeconds: services.config.QUARRY_MONITOR_MIN_INTERVAL_SECONDS,
    checkWebhookUrl: (url) => void checkWebhookUrl(url, { allowHttp: services.config.QUARRY_WEBHOOK_ALLOW_HTTP, field: 'webhook.url' }),
    now: clock.now(),
  });

  const ownMonitor = async (request: FastifyRequest): Promise<MonitorRecord> => {
    const { id } = request.params as { id: string };
    const monitor = await monitors.getMonitor(id);
    if (!monitor || monitor.status === 'deleted' || monitor.teamId !== request.caller.teamId) throw new NotFoundError('Monitor not found');
    return monitor;
  };

  const checkOf = async (job: JobRecord) => {
    const saved = (await services.jobStore.getJobState(job.id))?.value as AgentState<MonitorCheckState> | undefined;
    return { job, saved, view: checkView(job, saved) };
  };

  app.post('/v2/monitor', { config: { kind: 'crawl' } }, async (request) => {
    const monitor = parseCreateMonitor(request.body, { id: ids.next(), teamId: request.caller.teamId, ids, rules: rules() });
    await monitors.createMonitor(monitor);
    const scheduled = await scheduler.scheduleNext(monitor, null, clock.now());
    return { success: true, data: monitorView(scheduled ?? (await monitors.getMonitor(monitor.id)) ?? monitor) };
  });

  app.get('/v2/monitor', { config: { kind: 'crawlStatus' } }, async (request) => {
    const { limit, offset } = listQuery(request.query);
    const list = await monitors.listMonitors(request.caller.teamId, limit, offset);
    return { success: true, data: list.map(monitorView) };
  });

  app.get('/v2/monitor/:id', { config: { kind: 'crawlStatus' } }, async (request) => ({ success: true, data: monitorView(await ownMonitor(request)) }));

  app.patch('/v2/monitor/:id', { config: { kind: 'crawlStatus' } }, async (request) => {
    const monitor = await ownMonitor(request);
    applyMonitorUpdate(monitor, request.body, { ids, rules: rules() }); // a bad body is a 400 before anything changes
    const saved = await scheduler.replaceSchedule((current) => applyMonitorUpdate(current, request.body, { ids, rules: rules() }).monitor, monitor.id);
    if (!saved) throw new NotFoundError('Monitor not found');
    return { success: true, data: monitorView(saved) };
  });

  app.delete('/v2/monitor/:id', { config: { kind: 'crawlStatus' } }, async (request) => {
    const monitor = await ownMonitor(request);
    await scheduler.replaceSchedule((current) => ({ ...current, status: 'deleted', updatedAt: clock.now() }), monitor.id);
    return { success: true };
  });

  app.post('/v2/monitor/:id/run', { config: { kind: 'crawl' } }, async (request) => {
    const monitor = await ownMonitor(request);
    await requireCredits(services, request.caller.teamId, 1);
    const job = await scheduler.runNow(monitor);
    return { success: true, data: (await checkOf(job)).view };
  });

  app.get('/v2/monitor/:id/checks', { config: { kind: 'crawlStatus' } }, async (request) => {
    const monitor = await ownMonitor(request);
    const { limit, offset } = listQuery(request.query);
    const checks = [];
    for (const id of await monitors.listChecks(monitor.id, limit, offset)) {
      const job = await services.jobStore.getJob(id);
      // A tick replaced before it ran (the schedule changed) is not a check; one past its retention is gone.
      if (job && job.status !== 'cancelled' && job.expiresAt > clock.now()) checks.push((await checkOf(job)).view);
    }
    return { success: true, data: checks };
  });

  app.get('/v2/monitor/:id/checks/:checkId', { config: { kind: 'crawlStatus' } }, async (request) => {
    const monitor = await ownMonitor(request);
    const { checkId } = request.params as { checkId: string };
    const job = await services.jobStore.getJob(checkId);
    if (!job || job.kind !== 'monitor_check' || job.teamId !== monitor.teamId || job.expiresAt <= clock.now() || job.request.monitorId !== monitor.id) {
      throw new NotFoundError('Check not found');
    }
    const { skip, limit } = pageQuery(request.query);
    const status = (request.query as { status?: string }).status;
    const { saved, view } = await checkOf(job);
    const [documents, errors] = await Promise.all([services.jobStore.listDocuments(job.id, 0, 10_000), services.jobStore.listErrors(job.id)]);
    const pages = checkPages(documents, errors, saved?.program).filter((page) => !status || page.status === status);
    const end = limit === undefined ? pages.length : skip + limit;
    return { success: true, data: { ...view, pages: pages.slice(skip, end), next: null } };
  });
}

function listQuery(query: unknown): { limit: number; offset: number } {
  const record = (query ?? {}) as Record<string, string | undefined>;
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
