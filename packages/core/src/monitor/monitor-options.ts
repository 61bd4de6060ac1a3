import { Type, type Static } from '@sinclair/typebox';
import { ValidationError } from '../errors.js';
import type { Ids } from '../ports/clock.js';
import type { MonitorRecord, MonitorSchedule } from '../ports/monitor-store.js';
import { parseCrawlOptions } from '../options/crawl-options.js';
import { parseScrapeOptions } from '../options/normalize-scrape-options.js';
import { validate } from '../options/validate.js';
import { parseSchedule } from './monitor-schedule.js';

/**
 * The `/v2/monitor` request bodies, in the shape of Firecrawl's SDK (`CreateMonitorRequest`,
 * `UpdateMonitorRequest`): a name, a schedule (cron or text), targets (scrape URLs or a crawl),
 * an optional webhook. Search targets need Firecrawl's judge model and are refused with a 400.
 */
const scheduleSchema = Type.Object(
  {
    cron: Type.Optional(Type.String({ maxLength: 200, description: 'A cron expression: 5 fields, or 6 with a leading seconds field.' })),
    text: Type.Optional(Type.String({ maxLength: 200, description: 'A schedule in words: "every 30 minutes", "hourly", "daily at 9:00".' })),
    timezone: Type.Optional(Type.String({ maxLength: 100, description: 'IANA time zone the schedule is read in (default UTC).' })),
  },
  { additionalProperties: false, description: 'When checks run: exactly one of `cron` or `text`.' },
);

const scrapeTarget = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    type: Type.Literal('scrape'),
    urls: Type.Array(Type.String({ minLength: 1, maxLength: 4_096 }), { minItems: 1, maxItems: 100, description: 'Pages checked on each run.' }),
    scrapeOptions: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Scrape options of the pages (v2 spelling); changeTracking is added.' }),
    ),
  },
  { additionalProperties: false },
);

const crawlTarget = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    type: Type.Literal('crawl'),
    url: Type.String({ minLength: 1, maxLength: 4_096, description: 'Start URL: the site is mapped on each run and its pages checked.' }),
    crawlOptions: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Crawl options (v2 spelling); `limit` bounds the pages checked (default 10).' }),
    ),
    scrapeOptions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

const searchTarget = Type.Object({ type: Type.Literal('search') }, { additionalProperties: true });

const targetsSchema = Type.Array(Type.Union([scrapeTarget, crawlTarget, searchTarget]), {
  minItems: 1,
  maxItems: 20,
  description: 'What each check looks at.',
});

const webhookSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 4_096, description: 'Receives `monitor.check.completed` when a check found changes.' }),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 100 }))),
  },
  { additionalProperties: false },
);

const common = {
  webhook: Type.Optional(Type.Union([webhookSchema, Type.Null()])),
  notification: Type.Optional(
    Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'Accepted and stored; Quarry sends no email.' }),
  ),
  retentionDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'How long checks are kept (default 30 days).' })),
  goal: Type.Optional(Type.Union([Type.String({ maxLength: 2_000 }), Type.Null()])),
  judgeEnabled: Type.Optional(Type.Boolean()),
  origin: Type.Optional(Type.String()),
  integration: Type.Optional(Type.Union([Type.String(), Type.Null()])),
};

export const createMonitorRequestSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200, description: 'A name for the monitor.' }),
    schedule: scheduleSchema,
    targets: targetsSchema,
    ...common,
  },
  { additionalProperties: false },
);

export const updateMonitorRequestSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')])),
    schedule: Type.Optional(scheduleSchema),
    targets: Type.Optional(targetsSchema),
    ...common,
  },
  { additionalProperties: false },
);

export type CreateMonitorRequest = Static<typeof createMonitorRequestSchema>;
export type UpdateMonitorRequest = Static<typeof updateMonitorRequestSchema>;

export const defaultRetentionDays = 30;
/** Pages a crawl target checks when its crawlOptions give no limit. */
export const defaultCrawlTargetLimit = 10;

export interface MonitorRules {
  minIntervalSeconds: number;
  /** Checks `webhook.url` (https, or http when the operator allows it); throws a ValidationError naming it. */
  checkWebhookUrl(url: string): void;
  now: number;
}

function bodyOf(body: unknown): Record<string, unknown> {
  const raw = structuredClone(body ?? {});
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The request body must be a JSON object', '');
  return raw as Record<string, unknown>;
}

/** Validated targets with ids; scrape and crawl options checked with their own schemas. */
function parseTargets(targets: CreateMonitorRequest['targets'], ids: Ids): MonitorRecord['targets'] {
  return targets.map((target, index) => {
    const field = `targets[${index}]`;
    if (target.type === 'search')
      throw new ValidationError([
        { field: `${field}.type`, message: `\`${field}.type\`: search targets are not supported by Quarry (they need Firecrawl's judge); use scrape or crawl` },
      ]);
    const typed = target as Static<typeof scrapeTarget> | Static<typeof crawlTarget>;
    parseScrapeOptions('v2', typed.scrapeOptions, `${field}.scrapeOptions`);
    if (typed.type === 'scrape') {
      typed.urls.forEach((url, urlIndex) => checkUrl(url, `${field}.urls[${urlIndex}]`));
    } else {
      checkUrl(typed.url, `${field}.url`);
      try {
        parseCrawlOptions(typed.url, typed.crawlOptions ?? {});
      } catch (error) {
        if (error instanceof ValidationError)
          throw new ValidationError(error.issues.map((issue) => ({ ...issue, field: `${field}.crawlOptions.${issue.field}` })));
        throw error;
      }
    }
    return { ...typed, id: typed.id ?? ids.next() } as MonitorRecord['targets'][number];
  });
}

function checkUrl(url: string, field: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ValidationError([{ field, message: `\`${field}\` must be an absolute http(s) URL; got "${url}"` }]);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ValidationError([{ field, message: `\`${field}\` must be an http(s) URL; got "${url}"` }]);
}

function parseWebhook(webhook: CreateMonitorRequest['webhook'], rules: MonitorRules): MonitorRecord['webhook'] {
  if (!webhook) return null;
  rules.checkWebhookUrl(webhook.url);
  return webhook;
}

/** A new monitor from a create request (not yet scheduled: `nextCheckId` null). */
export function parseCreateMonitor(body: unknown, context: { id: string; teamId: string; ids: Ids; rules: MonitorRules }): MonitorRecord {
  const request = validate(createMonitorRequestSchema, bodyOf(body));
  const { rules } = context;
  const schedule: MonitorSchedule = parseSchedule(request.schedule, rules.minIntervalSeconds, rules.now);
  return {
    id: context.id,
    teamId: context.teamId,
    name: request.name,
    status: 'active',
    schedule,
    targets: parseTargets(request.targets, context.ids),
    webhook: parseWebhook(request.webhook, rules),
    notification: request.notification ?? null,
    retentionDays: request.retentionDays ?? defaultRetentionDays,
    goal: request.goal ?? null,
    judgeEnabled: request.judgeEnabled ?? false,
    createdAt: rules.now,
    updatedAt: rules.now,
    nextCheckId: null,
    nextRunAt: null,
    lastRunAt: null,
    lastCheckSummary: null,
  };
}

/** The monitor with an update request applied; `rescheduled` says whether its ticks changed. */
export function applyMonitorUpdate(
  monitor: MonitorRecord,
  body: unknown,
  context: { ids: Ids; rules: MonitorRules },
): { monitor: MonitorRecord; rescheduled: boolean } {
  const request = validate(updateMonitorRequestSchema, bodyOf(body));
  const { rules } = context;
  const next: MonitorRecord = { ...monitor, updatedAt: rules.now };
  if (request.name !== undefined) next.name = request.name;
  if (request.status !== undefined) next.status = request.status;
  if (request.schedule !== undefined) next.schedule = parseSchedule(request.schedule, rules.minIntervalSeconds, rules.now);
  if (request.targets !== undefined) next.targets = parseTargets(request.targets, context.ids);
  if (request.webhook !== undefined) next.webhook = parseWebhook(request.webhook, rules);
  if (request.notification !== undefined) next.notification = request.notification;
  if (request.retentionDays !== undefined) next.retentionDays = request.retentionDays;
  if (request.goal !== undefined) next.goal = request.goal;
  if (request.judgeEnabled !== undefined) next.judgeEnabled = request.judgeEnabled;
  const rescheduled = request.status !== undefined || request.schedule !== undefined || request.targets !== undefined || request.webhook !== undefined;
  return { monitor: next, rescheduled };
}
