import { webhookEvents } from '../options/webhook-options.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { JobRecord } from '../ports/job-store.js';
import type { OutboxEvent, OutboxPhase } from '../ports/webhook-outbox.js';
import type { JobEvent } from './job-events.js';

/**
 * Job events as webhook deliveries for the outbox, in Firecrawl's payload shape plus `success`
 * and `type`: `{success, type: "crawl.page", id, webhookId, data: [document], metadata, error?}`.
 * The events filter and the user's headers come from the job's `webhook` option.
 */
interface WebhookSpec {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  events: string[];
}

export function webhookSpecOf(job: JobRecord): WebhookSpec | undefined {
  const webhook = 'webhook' in job.request ? job.request.webhook : undefined;
  if (!webhook) return undefined;
  if (typeof webhook === 'string') return { url: webhook, headers: {}, metadata: {}, events: [...webhookEvents] };
  const spec = webhook as Partial<WebhookSpec> & { url: string };
  return { url: spec.url, headers: spec.headers ?? {}, metadata: spec.metadata ?? {}, events: spec.events ?? [...webhookEvents] };
}

/** Event names whose prefix is not the job kind. */
const eventPrefixes: Partial<Record<JobRecord['kind'], string>> = { monitor_check: 'monitor.check' };

/** Turns job events into outbox rows; the stores write them in the same transaction as the change. */
export type JobOutbox = (event: JobEvent) => OutboxEvent[];

export function webhookOutbox(clock: Clock, ids: Ids): JobOutbox {
  return (event) => outboxEventsFor(event, clock, ids);
}

/**
 * When the event goes out among its job's: started (of every kind: crawl, batch scrape, extract,
 * deep research, llms.txt, monitor check) before anything else, completed, failed and cancelled
 * after everything else; pages and page errors in between, concurrently.
 */
function outboxPhaseOf(type: JobEvent['type']): OutboxPhase | undefined {
  switch (type) {
    case 'started':
      return 'first';
    case 'completed':
    case 'failed':
    case 'cancelled':
      return 'last';
    case 'page':
    case 'page-error':
      return undefined;
  }
}

export function outboxEventsFor(event: JobEvent, clock: Clock, ids: Ids): OutboxEvent[] {
  const spec = webhookSpecOf(event.job);
  if (!spec) return [];
  const name = event.type === 'page-error' ? 'page' : event.type;
  if (!spec.events.includes(name) && !(name === 'cancelled' && spec.events.includes('failed'))) return [];
  const prefix = eventPrefixes[event.job.kind] ?? event.job.kind; // crawl, batch_scrape, extract, ... as Firecrawl names its events
  const webhookId = ids.next();
  const payload: Record<string, unknown> = {
    success: event.type !== 'failed' && event.type !== 'page-error',
    type: `${prefix}.${name}`,
    id: event.job.id,
    webhookId,
    data: event.type === 'page' ? [event.document] : event.type === 'completed' ? (event.data ?? []) : [],
    metadata: spec.metadata,
  };
  if (event.type === 'page-error') payload.error = event.error.message;
  if (event.type === 'failed') payload.error = event.error;
  const phase = outboxPhaseOf(event.type);
  return [
    {
      id: webhookId,
      jobId: event.job.id,
      teamId: event.job.teamId,
      url: spec.url,
      headers: spec.headers,
      body: JSON.stringify(payload),
      createdAt: clock.now(),
      // The outbox holds pages until started is done, and the terminal event until everything else is.
      ...(phase ? { phase } : {}),
    },
  ];
}
