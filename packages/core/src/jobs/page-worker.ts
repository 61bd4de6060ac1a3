import type { AgentWorker } from '../agent-jobs/agent-worker.js';
import { isAgentJob } from '../agent-jobs/agent-job.js';
import { hiddenPageDepth, hiddenPageEntries } from '../change-tracking/hidden-pages.js';
import type { ChangeHistory } from '../ports/change-history.js';
import { compileCrawlRules, type CrawlRules } from '../crawl/crawl-rules.js';
import { decideLink, decideRedirect, denialMessages, type LinkContext } from '../crawl/frontier-filter.js';
import { RobotsCache } from '../crawl/robots-cache.js';
import { discoverSitemapUrls } from '../crawl/sitemap-discovery.js';
import { dedupKey } from '../crawl/url-normalize.js';
import type { RobotsRules } from '../crawl/robots-rules.js';
import { TargetError, asQuarryError, type ErrorJson, type TargetErrorKind } from '../errors.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { Fetcher } from '../ports/fetcher.js';
import { tokensUsedBy } from '../llm/json-stage.js';
import type { FrontierEntry, JobOf, JobRecord, JobStore } from '../ports/job-store.js';
import type { LeasedMessage, Queue, QueueMessage } from '../ports/queue.js';
import type { ScrapedPage } from '../scrape/scrape-page.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import { kickoffKey, type CrawlJobRequest } from './job-request.js';
import type { JobEventSink, JobEvent } from './job-events.js';
import type { JobOutbox } from './webhook-payloads.js';

/**
 * Does the work of one queue message: a crawl's kickoff, a crawl page, or a batch page. Every
 * step is idempotent, so a message delivered twice (its first worker died) changes nothing twice:
 * items are added by dedup key and results are finished exactly once by the JobStore.
 */
export interface PageWorkerDeps {
  jobs: JobStore;
  queue: Queue;
  fetcher: Fetcher;
  clock: Clock;
  ids: Ids;
  scrape: (
    url: string,
    options: ScrapeOptions,
    context: { signal?: AbortSignal; teamId?: string; jobId?: string; visibility?: 'visible' | 'hidden' },
  ) => Promise<ScrapedPage>;
  events: JobEventSink;
  /** Webhook deliveries for an event, stored with the change (none in library use). */
  outbox?: JobOutbox;
  robotsTokens: string[];
  /** Change histories: a crawl with changeTracking revisits the pages its previous crawl saw (hidden-pages.ts). */
  changeHistory?: ChangeHistory;
  /** Runs the steps of extract, deep research and llms.txt jobs (without it such a job fails). */
  agents?: AgentWorker;
}

type CrawlJob = JobOf<'crawl'>;

/** A kind whose jobs never get page messages (a kept scrape): a message for one is a bug upstream. */
const notQueued = (job: JobRecord) => new Error(`Job ${job.id} of kind ${job.kind} has no pages to work`);

interface CrawlContext {
  rules: CrawlRules;
  request: CrawlJobRequest;
  robots: RobotsRules | undefined;
}

export class PageWorker {
  private readonly contexts = new Map<string, Promise<CrawlContext>>();
  private readonly robots: RobotsCache;

  constructor(private readonly deps: PageWorkerDeps) {
    this.robots = new RobotsCache(deps.fetcher, deps.clock, deps.robotsTokens);
  }

  /** Per-job pacing read by the runner: most pages at once and seconds between requests. */
  async pacing(job: JobRecord): Promise<{ maxConcurrency: number | undefined; delaySeconds: number }> {
    if (isAgentJob(job)) return { maxConcurrency: undefined, delaySeconds: 0 };
    if (job.kind === 'batch_scrape') {
      return { maxConcurrency: job.request.maxConcurrency, delaySeconds: 0 };
    }
    if (job.kind !== 'crawl') throw notQueued(job);
    const context = await this.crawlContext(job);
    const options = context.request.options;
    const delaySeconds = options.delaySeconds > 0 ? options.delaySeconds : (context.robots?.crawlDelaySeconds ?? 0);
    return { maxConcurrency: delaySeconds > 0 ? 1 : options.maxConcurrency, delaySeconds };
  }

  /**
   * Works one message. Returns true when the message is already off the queue: the store acked it
   * with the page's result (`JobStore.acksMessages`); otherwise the caller acks it.
   */
  async handle(job: JobRecord, message: LeasedMessage, signal: AbortSignal): Promise<boolean> {
    if (isAgentJob(job)) {
      if (!this.deps.agents) throw new Error(`This process runs no ${job.kind} jobs`);
      await this.deps.agents.handle(job, message, signal);
      return false;
    }
    if (job.kind === 'crawl' && message.key === kickoffKey) {
      await this.kickoff(job, signal);
      return false;
    }
    const item = await this.deps.jobs.getItem(job.id, message.key);
    if (item?.state !== 'queued') return false; // already finished by an earlier delivery
    if (job.kind === 'batch_scrape') return this.batchPage(job, message, signal);
    if (job.kind !== 'crawl') throw notQueued(job);
    return this.crawlPage(job, message, signal);
  }

  /** Forgets cached per-job state (call when a job ends). */
  forget(jobId: string) {
    this.contexts.delete(jobId);
  }

  private crawlContext(job: CrawlJob): Promise<CrawlContext> {
    let context = this.contexts.get(job.id);
    if (!context) {
      context = this.buildContext(job);
      this.contexts.set(job.id, context);
      context.catch(() => this.contexts.delete(job.id));
    }
    return context;
  }

  private async buildContext(job: CrawlJob): Promise<CrawlContext> {
    const request = job.request;
    const options = request.options;
    const rules = compileCrawlRules({
      startUrl: job.url,
      includePaths: options.includePaths,
      excludePaths: options.excludePaths,
      ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
      ...(options.maxDiscoveryDepth !== undefined ? { maxDiscoveryDepth: options.maxDiscoveryDepth } : {}),
      crawlEntireDomain: options.crawlEntireDomain,
      allowExternalLinks: options.allowExternalLinks,
      allowSubdomains: options.allowSubdomains,
      ignoreQueryParameters: options.ignoreQueryParameters,
      deduplicateSimilarURLs: options.deduplicateSimilarURLs,
      regexOnFullURL: options.regexOnFullURL,
    });
    const tokens = options.robotsUserAgent ? [options.robotsUserAgent, ...this.deps.robotsTokens.slice(1)] : this.deps.robotsTokens;
    const robots = options.ignoreRobotsTxt
      ? undefined
      : await this.robots.rulesFor(rules.startUrl, tokens, { skipTlsVerification: options.scrapeOptions.skipTlsVerification });
    return { rules, request, robots };
  }

  private async kickoff(job: CrawlJob, signal: AbortSignal): Promise<void> {
    const context = await this.crawlContext(job);
    const { rules, request } = context;
    const options = request.options;
    const start = rules.startUrl;
    const unreachable = context.robots?.unreachable;
    if (unreachable) {
      // The origin cannot be reached at all (no such name, closed port, refused address): that is the reason.
      throw new TargetError(String(unreachable.details?.kind) as TargetErrorKind, `The start URL ${job.url} could not be crawled: ${unreachable.message}`, {
        details: { ...unreachable.details, url: job.url },
      });
    }
    if (context.robots?.isUnavailable) {
      // RFC 9309 §2.3.1.4: robots.txt answered 5xx/429 or could not be reached: fetch nothing else.
      await this.deps.jobs.addRobotsBlocked(job.id, [start.href]);
      throw new TargetError(
        'robots',
        `robots.txt of ${start.origin} could not be read (a server error, 429 or no answer), which RFC 9309 says means disallow all: nothing was crawled. Set ignoreRobotsTxt to crawl anyway.`,
      );
    }
    // The start page is always fetched (its include/exclude verdict is applied after it is scraped).
    await this.enqueue(job, [{ url: start.href, key: dedupKey(start, rules.keyOptions), discoveryDepth: 0 }]);
    if (options.sitemap !== 'skip') {
      const urls = await discoverSitemapUrls({
        startUrl: start,
        robotsSitemaps: context.robots?.sitemaps ?? [],
        fetcher: this.deps.fetcher,
        maxUrls: Math.max(options.limit * 2, 1_000),
        signal,
      });
      const robotsBlocked: string[] = [];
      const entries: FrontierEntry[] = [];
      const seedContext: LinkContext = { pageUrl: start, discoveryDepth: -1, ...this.robotsCheck(context) };
      for (const url of urls) {
        const decision = decideLink(rules, url, seedContext);
        if (decision.enqueue) entries.push({ url: decision.url.href, key: decision.key, discoveryDepth: 0 });
        else if (decision.reason === 'robots') robotsBlocked.push(url);
      }
      if (robotsBlocked.length > 0) await this.deps.jobs.addRobotsBlocked(job.id, robotsBlocked);
      await this.enqueue(job, entries);
    }
    await this.deps.jobs.updateJob(job.id, { kickoffDone: true });
  }

  /**
   * Work a crawl adds once it has no pages left: the pages its previous crawl saw that it did not
   * reach (changeTracking, hidden-pages.ts). True while such pages are pending (the crawl is not done).
   */
  async addFinalPages(job: JobRecord): Promise<boolean> {
    if (job.kind !== 'crawl' || !this.deps.changeHistory) return false;
    const { rules, request } = await this.crawlContext(job);
    const entries = await hiddenPageEntries(this.deps.changeHistory, job, rules, request.options.scrapeOptions);
    if (entries.length === 0) return false;
    const added = await this.deps.jobs.addItems(job.id, entries, request.options.limit + entries.length);
    if (added.length > 0) await this.deps.queue.enqueue(added.map((entry) => messageFor(job.id, entry)));
    return added.length > 0 || (await this.deps.jobs.progress(job.id)).pending > 0;
  }

  private async crawlPage(job: CrawlJob, message: LeasedMessage, signal: AbortSignal): Promise<boolean> {
    const context = await this.crawlContext(job);
    const { rules, request } = context;
    const options = request.options;
    if (message.discoveryDepth === hiddenPageDepth) return this.hiddenPage(job, message, options.scrapeOptions, signal);
    let page: ScrapedPage;
    try {
      page = await this.deps.scrape(message.url, options.scrapeOptions, { signal, teamId: job.teamId, jobId: job.id });
    } catch (error) {
      return this.fail(job, message, asQuarryError(error).toJSON());
    }
    const finalUrl = new URL(page.document.metadata.url);
    const isStart = message.discoveryDepth === 0 && message.key === dedupKey(rules.startUrl, rules.keyOptions);

    // Redirects: the target must pass the rules too, and is one page with its source.
    if (finalUrl.href !== message.url) {
      const decision = decideRedirect(rules, finalUrl, {
        sourceUrl: new URL(message.url),
        discoveryDepth: message.discoveryDepth,
        ...this.robotsCheck(context),
      });
      if (!decision.enqueue && !isStart) {
        return this.fail(job, message, { code: 'invalid_request', message: `Redirect target refused: ${denialMessages[decision.reason]}` });
      }
      if (decision.enqueue && decision.key !== message.key) {
        const fresh = await this.deps.jobs.markSeen(job.id, [decision.key]);
        if (fresh.length === 0) return this.fail(job, message, { code: 'internal', message: 'Redirected to a page this crawl already has' }, true);
      }
    }

    // sitemap "only": the crawl is the sitemap's URLs (and the start page), links are not followed.
    const canFollow = options.sitemap !== 'only' && (options.maxDiscoveryDepth === undefined || message.discoveryDepth < options.maxDiscoveryDepth);
    if (canFollow) {
      const entries: FrontierEntry[] = [];
      const robotsBlocked: string[] = [];
      // One context (and robots closure) per page, and no await per link: a page has ~70 links.
      const linkContext: LinkContext = { pageUrl: finalUrl, discoveryDepth: message.discoveryDepth, ...this.robotsCheck(context) };
      for (const link of page.links) {
        const decision = decideLink(rules, link, linkContext);
        if (decision.enqueue) entries.push({ url: decision.url.href, key: decision.key, discoveryDepth: decision.discoveryDepth });
        else if (decision.reason === 'robots' && decision.url) robotsBlocked.push(decision.url.href);
      }
      if (robotsBlocked.length > 0) await this.deps.jobs.addRobotsBlocked(job.id, robotsBlocked);
      await this.enqueue(job, entries);
    }

    // The start page is scraped for its links even when include/exclude refuse it as a result.
    if (isStart) {
      const text = rules.regexOnFullURL ? finalUrl.href : finalUrl.pathname;
      const refused = rules.excludes.matchesAny(text) ? 'excluded' : !rules.includes.isEmpty && !rules.includes.matchesAny(text) ? 'not-included' : undefined;
      if (refused) return this.fail(job, message, { code: 'invalid_request', message: denialMessages[refused] });
    }
    return this.succeed(job, message, page);
  }

  /** A page of the previous crawl this one did not reach: scraped and reported hidden, its links not followed. */
  private async hiddenPage(job: JobRecord, message: LeasedMessage, options: ScrapeOptions, signal: AbortSignal): Promise<boolean> {
    let page: ScrapedPage;
    try {
      page = await this.deps.scrape(message.url, options, { signal, teamId: job.teamId, jobId: job.id, visibility: 'hidden' });
    } catch (error) {
      return this.fail(job, message, asQuarryError(error).toJSON());
    }
    return this.succeed(job, message, page);
  }

  private async batchPage(job: JobOf<'batch_scrape'>, message: LeasedMessage, signal: AbortSignal): Promise<boolean> {
    let page: ScrapedPage;
    try {
      page = await this.deps.scrape(message.url, job.request.options, { signal, teamId: job.teamId, jobId: job.id });
    } catch (error) {
      return this.fail(job, message, asQuarryError(error).toJSON());
    }
    return this.succeed(job, message, page);
  }

  private robotsCheck(context: CrawlContext): { isAllowedByRobots?: (url: URL) => boolean } {
    const robots = context.robots;
    if (!robots) return {};
    const origin = context.rules.startUrl.origin;
    // Other origins (subdomains, external links) are not checked against this origin's robots.txt.
    return { isAllowedByRobots: (url: URL) => url.origin !== origin || robots.isAllowed(url) };
  }

  private async enqueue(job: CrawlJob, entries: FrontierEntry[]) {
    if (entries.length === 0) return;
    const limit = job.request.options.limit;
    const added = await this.deps.jobs.addItems(job.id, entries, limit);
    if (added.length === 0) return;
    await this.deps.queue.enqueue(added.map((entry) => messageFor(job.id, entry)));
  }

  /** Stores the page (and acks its message when the store does: returns whether it did). */
  private async succeed(job: JobRecord, message: LeasedMessage, page: ScrapedPage): Promise<boolean> {
    const document = page.document;
    const event: JobEvent = { type: 'page', job, document };
    const finished = await this.deps.jobs.finishItem(job.id, job.teamId, {
      key: message.key,
      document,
      credits: document.metadata.creditsUsed,
      tokens: tokensUsedBy(document),
      finishedAt: this.deps.clock.now(),
      ...this.outboxOf(event),
      ack: message,
    });
    if (finished) await this.deps.events(event);
    return this.deps.jobs.acksMessages === true;
  }

  /** Stores the page's error (and acks its message when the store does: returns whether it did). */
  private async fail(job: JobRecord, message: LeasedMessage, error: ErrorJson, silent = false): Promise<boolean> {
    const event: JobEvent = { type: 'page-error', job, url: message.url, error };
    const finished = await this.deps.jobs.finishItem(job.id, job.teamId, {
      key: message.key,
      ...(silent ? {} : { error: { ...error, url: message.url }, ...this.outboxOf(event) }),
      credits: 0,
      finishedAt: this.deps.clock.now(),
      ack: message,
    });
    if (finished && !silent) await this.deps.events(event);
    return this.deps.jobs.acksMessages === true;
  }

  private outboxOf(event: JobEvent) {
    const outbox = this.deps.outbox?.(event);
    return outbox && outbox.length > 0 ? { outbox } : {};
  }
}

export function messageFor(jobId: string, entry: FrontierEntry): QueueMessage {
  return { id: `${jobId}:${entry.key}`, jobId, key: entry.key, url: entry.url, discoveryDepth: entry.discoveryDepth };
}
