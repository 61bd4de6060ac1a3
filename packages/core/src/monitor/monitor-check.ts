import type { AgentProgram, StepContext } from '../agent-jobs/agent-program.js';
import { addPages, jobDocuments, pageKey, scrapeQueuedPages } from '../agent-jobs/step-pages.js';
import type { ScrapeDocument } from '../document.js';
import { parseScrapeOptions } from '../options/normalize-scrape-options.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import { jobOfKind } from '../ports/job-store.js';
import type { MonitorRecord, MonitorStore, MonitorSummary } from '../ports/monitor-store.js';
import { monitorTag } from './monitor-check-request.js';
import { defaultCrawlTargetLimit } from './monitor-options.js';
import type { MonitorScheduler } from './monitor-scheduler.js';

/**
 * One check of a monitor, as an agent job (`monitor_check`):
 *
 *   step 1: a scheduled check first schedules the next tick (monitor-scheduler.ts), then lists its
 *           pages: each scrape target's URLs, each crawl target's mapped site (up to its limit)
 *   steps:  pages scraped with the target's options plus changeTracking under the monitor's own
 *           tag, until none is left (each finished once; a failed page is an error record)
 *   last:   summary (same/changed/new/removed/error) saved on the check and the monitor; the pages
 *           are charged like scrapes; the webhook gets `monitor.check.completed` when a page changed
 *
 * A scheduled check that is no longer its monitor's tick (the monitor was paused, changed or
 * deleted meanwhile) ends at once with `skipped` and scrapes nothing.
 */
export interface MonitorCheckState {
  phase: 'start' | 'scrape' | 'done';
  startedAt?: number;
  finishedAt?: number;
  /** Target id of each page, by page key. */
  targetOf: Record<string, string>;
  skipped?: string;
  summary?: MonitorSummary;
}

export interface MonitorCheckDeps {
  monitors: MonitorStore;
  scheduler: MonitorScheduler;
}

export const emptySummary = (): MonitorSummary => ({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 });

/** The scrape options of a target's pages: its own, with changeTracking (git-diff) in the monitor's history. */
export function targetScrapeOptions(monitorId: string, target: MonitorRecord['targets'][number]): ScrapeOptions {
  const input = { ...((target.scrapeOptions as Record<string, unknown> | undefined) ?? {}) };
  const formats = ((input.formats as unknown[] | undefined) ?? ['markdown']).filter(
    (format) => format !== 'changeTracking' && (format as { type?: string }).type !== 'changeTracking',
  );
  const asked = ((input.formats as unknown[] | undefined) ?? []).find((format) => (format as { type?: string }).type === 'changeTracking') as
    | Record<string, unknown>
    | undefined;
  const modes = (asked?.modes as string[] | undefined) ?? ['git-diff'];
  return parseScrapeOptions('v2', { ...input, formats: [...formats, { ...asked, type: 'changeTracking', modes, tag: monitorTag(monitorId) }] });
}

async function targetUrls(context: StepContext, target: MonitorRecord['targets'][number]): Promise<string[]> {
  if (target.type === 'scrape') return target.urls as string[];
  const url = String(target.url);
  const limit = (target.crawlOptions as { limit?: number } | undefined)?.limit ?? defaultCrawlTargetLimit;
  const links = await context.map(url, { limit });
  return [url, ...links.map((link) => link.url).filter((link) => link !== url)].slice(0, limit);
}

async function start(context: StepContext, state: MonitorCheckState, deps: MonitorCheckDeps): Promise<MonitorCheckState> {
  const { request } = jobOfKind(context.job, 'monitor_check');
  const monitor = await deps.monitors.getMonitor(request.monitorId);
  if (!monitor || monitor.status === 'deleted') return { ...state, phase: 'done', skipped: 'the monitor was deleted' };
  if (request.trigger === 'scheduled') {
    if (monitor.status !== 'active') return { ...state, phase: 'done', skipped: 'the monitor is paused' };
    if (monitor.nextCheckId === context.job.id) {
      await deps.scheduler.scheduleNext(monitor, context.job.id, request.runAt, context.job.id);
    } else if (!(await isScheduledAfter(context, monitor))) {
      return { ...state, phase: 'done', skipped: 'the monitor was rescheduled' };
    }
  }
  const targetOf: Record<string, string> = {};
  for (const target of request.targets) {
    const urls = await targetUrls(context, target);
    for (const url of await addPages(context, urls, 1_000)) targetOf[pageKey(url)] = target.id;
  }
  return { ...state, phase: 'scrape', startedAt: context.now(), targetOf };
}

/** Whether this check already scheduled the monitor's next tick (its first step ran before and died). */
async function isScheduledAfter(context: StepContext, monitor: MonitorRecord): Promise<boolean> {
  if (!monitor.nextCheckId) return false;
  const next = await context.jobs.getJob(monitor.nextCheckId);
  return next?.kind === 'monitor_check' && next.request.previousCheckId === context.job.id;
}

async function scrapePending(context: StepContext, state: MonitorCheckState): Promise<boolean> {
  const { request } = jobOfKind(context.job, 'monitor_check');
  const options = new Map(request.targets.map((target) => [target.id, targetScrapeOptions(request.monitorId, target)]));
  const fallback = options.values().next().value!;
  return scrapeQueuedPages(context, (entry) => options.get(state.targetOf[entry.key] ?? '') ?? fallback);
}

/** The change status of a checked page. */
export function pageStatus(document: ScrapeDocument): 'same' | 'new' | 'changed' | 'removed' {
  const status = (document.changeTracking as { changeStatus?: string } | undefined)?.changeStatus;
  return status === 'same' || status === 'changed' || status === 'removed' ? status : 'new';
}

export function summarize(documents: ScrapeDocument[], errors: number): MonitorSummary {
  const summary = emptySummary();
  for (const document of documents) summary[pageStatus(document)]++;
  summary.error = errors;
  summary.totalPages = documents.length + errors;
  return summary;
}

async function finish(context: StepContext, state: MonitorCheckState, deps: MonitorCheckDeps): Promise<MonitorCheckState> {
  const documents = await jobDocuments(context);
  const errors = (await context.jobs.listErrors(context.job.id)).length;
  const summary = summarize(documents, errors);
  const { request } = jobOfKind(context.job, 'monitor_check');
  // The monitor's last run, written with a compare-and-set so a schedule change is never undone.
  for (let attempt = 0; attempt < 5; attempt++) {
    const monitor = await deps.monitors.getMonitor(request.monitorId);
    if (!monitor) break;
    if (await deps.monitors.saveMonitor({ ...monitor, lastRunAt: context.now(), lastCheckSummary: summary }, monitor.nextCheckId)) break;
  }
  return { ...state, phase: 'done', finishedAt: context.now(), summary };
}

/** Whether a finished check found something to notify about. */
export const hasChanges = (summary: MonitorSummary | undefined) => !!summary && summary.changed + summary.new + summary.removed > 0;

export function monitorCheckProgram(deps: MonitorCheckDeps): AgentProgram<MonitorCheckState> {
  return {
    kind: 'monitor_check',
    initial: () => ({ phase: 'start', targetOf: {} }),
    async step(context, state) {
      let current = state;
      if (current.phase === 'start') current = await start(context, current, deps);
      if (current.phase === 'scrape') {
        if (!(await scrapePending(context, current))) return { state: current, done: false };
        current = await finish(context, current, deps);
      }
      return { state: current, done: true };
    },
    completedData(job, state) {
      if (!hasChanges(state.summary)) return undefined;
      const { request } = jobOfKind(job, 'monitor_check');
      return [{ monitorId: request.monitorId, checkId: job.id, summary: state.summary }];
    },
  };
}
