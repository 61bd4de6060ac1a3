import { dedupKey } from '../crawl/url-normalize.js';
import type { ScrapeDocument } from '../document.js';
import { asQuarryError } from '../errors.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import { isPastDeadline, type StepContext } from './agent-program.js';

/**
 * The pages of an agent job, kept as the job's items and documents: added by URL (one item per
 * page, deduplicated), scraped a few at a time inside a step until the step's deadline, each
 * finished exactly once (a step that runs again skips pages already finished). A page that fails
 * becomes an error record of the job; the job carries on.
 */
const keyOptions = { ignoreQueryParameters: false, deduplicateSimilarURLs: true } as const;

export function pageKey(url: string): string {
  return dedupKey(new URL(url), keyOptions);
}

/** Adds pages (in order, new ones only) while the job holds fewer than `limit`; returns the URLs added. */
export async function addPages(context: StepContext, urls: string[], limit: number, discoveryDepth = 0): Promise<string[]> {
  const entries = urls.map((url) => ({ url, key: pageKey(url), discoveryDepth }));
  const added = await context.jobs.addItems(context.job.id, entries, limit);
  return added.map((entry) => entry.url);
}

/**
 * Scrapes queued pages until none is left or the deadline passes; answers whether none is left.
 * `options` may differ per page (a monitor's targets each have their own).
 */
export async function scrapeQueuedPages(
  context: StepContext,
  options: ScrapeOptions | ((entry: { key: string; url: string }) => ScrapeOptions),
  concurrency = 4,
): Promise<boolean> {
  const { job, jobs } = context;
  const pending = await jobs.pendingItems(job.id);
  let next = 0;
  const work = async () => {
    while (next < pending.length && !isPastDeadline(context) && !context.signal.aborted) {
      const entry = pending[next++]!;
      try {
        const document = await context.scrape(entry.url, typeof options === 'function' ? options(entry) : options);
        await jobs.finishItem(job.id, job.teamId, { key: entry.key, document, credits: 0, finishedAt: context.now() });
      } catch (error) {
        if (context.signal.aborted) return;
        const { code, message } = asQuarryError(error).toJSON();
        await jobs.finishItem(job.id, job.teamId, { key: entry.key, error: { code, message, url: entry.url }, credits: 0, finishedAt: context.now() });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, work));
  return (await jobs.progress(job.id)).pending === 0;
}

/** Every document of the job, in the order they finished. */
export async function jobDocuments(context: Pick<StepContext, 'job' | 'jobs'>): Promise<ScrapeDocument[]> {
  const documents: ScrapeDocument[] = [];
  for (;;) {
    const page = await context.jobs.listDocuments(context.job.id, documents.length, 500);
    documents.push(...page);
    if (page.length < 500) return documents;
  }
}

/** Credits of the job's pages, per the scrape rules (what each document says it cost). */
export function pageCredits(documents: ScrapeDocument[]): number {
  return documents.reduce((sum, document) => sum + (document.metadata.creditsUsed ?? 0), 0);
}
