import {
  jobOfKind,
  pageKey,
  pageStatus,
  type AgentState,
  type JobErrorRecord,
  type JobRecord,
  type MonitorCheckState,
  type MonitorRecord,
  type ScrapeDocument,
} from '@quarry/core';

/**
 * The API's shapes of a monitor, a check and a check's pages, as Firecrawl's SDK reads them
 * (`Monitor`, `MonitorCheck`, `MonitorCheckPage`): times as ISO strings, null where Quarry has
 * nothing (no email notifications, no judge).
 */
const iso = (at: number | null | undefined) => (at === null || at === undefined ? null : new Date(at).toISOString());

export function monitorView(monitor: MonitorRecord) {
  return {
    id: monitor.id,
    name: monitor.name,
    status: monitor.status,
    schedule: monitor.schedule,
    nextRunAt: iso(monitor.nextRunAt),
    lastRunAt: iso(monitor.lastRunAt),
    currentCheckId: monitor.nextCheckId,
    targets: monitor.targets,
    webhook: monitor.webhook,
    notification: monitor.notification,
    retentionDays: monitor.retentionDays,
    estimatedCreditsPerMonth: null,
    lastCheckSummary: monitor.lastCheckSummary,
    goal: monitor.goal,
    judgeEnabled: monitor.judgeEnabled,
    createdAt: iso(monitor.createdAt),
    updatedAt: iso(monitor.updatedAt),
  };
}

type CheckStatus = 'queued' | 'running' | 'completed' | 'failed';

function checkStatus(job: JobRecord, state: MonitorCheckState | undefined): CheckStatus {
  if (job.status === 'scraping') return state ? 'running' : 'queued';
  return job.status === 'completed' ? 'completed' : 'failed';
}

export function checkView(job: JobRecord, saved: AgentState<MonitorCheckState> | undefined) {
  const { request } = jobOfKind(job, 'monitor_check');
  const state = saved?.program;
  const status = checkStatus(job, state);
  const credits = saved?.charged?.credits ?? null;
  const error = job.status === 'cancelled' ? 'cancelled' : (job.error ?? (state?.skipped ? `skipped: ${state.skipped}` : null));
  return {
    id: job.id,
    monitorId: request.monitorId,
    status,
    trigger: request.trigger,
    scheduledFor: iso(request.runAt),
    startedAt: iso(state?.startedAt),
    finishedAt: iso(state?.finishedAt),
    estimatedCredits: null,
    reservedCredits: null,
    actualCredits: credits,
    billingStatus: credits ? 'confirmed' : 'not_applicable',
    summary: state?.summary ?? { totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 },
    targetResults: request.targets.map((target) => ({ targetId: target.id, type: target.type })),
    error,
    createdAt: iso(job.createdAt),
    updatedAt: iso(state?.finishedAt ?? state?.startedAt ?? job.createdAt),
  };
}

export function checkPages(documents: ScrapeDocument[], errors: JobErrorRecord[], state: MonitorCheckState | undefined) {
  const targetOf = (url: string) => state?.targetOf[pageKey(url)] ?? null;
  const pages = documents.map((document) => {
    const url = document.metadata.sourceURL || document.metadata.url;
    const tracking = document.changeTracking as { diff?: { text: string; json: unknown }; json?: unknown } | undefined;
    const diff =
      tracking?.diff || tracking?.json
        ? { ...(tracking.diff ? { text: tracking.diff.text, json: tracking.diff.json } : {}), ...(tracking.json ? { json: tracking.json } : {}) }
        : null;
    return {
      id: document.metadata.scrapeId,
      targetId: targetOf(url),
      url,
      status: pageStatus(document),
      previousScrapeId: null,
      currentScrapeId: document.metadata.scrapeId,
      statusCode: document.metadata.statusCode,
      error: null,
      metadata: document.metadata,
      diff,
      snapshot: null,
      judgment: null,
      createdAt: iso(state?.finishedAt ?? state?.startedAt),
    };
  });
  const failed = errors.map((error) => ({
    id: error.id,
    targetId: targetOf(error.url),
    url: error.url,
    status: 'error' as const,
    previousScrapeId: null,
    currentScrapeId: null,
    statusCode: null,
    error: error.error,
    metadata: null,
    diff: null,
    snapshot: null,
    judgment: null,
    createdAt: error.timestamp,
  }));
  return [...pages, ...failed];
}
