import type { ScrapeDocument } from '../document.js';
import type { ErrorJson } from '../errors.js';
import type { JobRecord } from '../ports/job-store.js';

/**
 * What happens to a job, as it happens. The library crawl turns these into its async iterator; the
 * server writes them to the webhook outbox. Page events come after the page's result is stored.
 */
export type JobEvent =
  | { type: 'started'; job: JobRecord }
  | { type: 'page'; job: JobRecord; document: ScrapeDocument }
  | { type: 'page-error'; job: JobRecord; url: string; error: ErrorJson }
  | { type: 'completed'; job: JobRecord /** The event's `data` (a monitor check's summary). */; data?: unknown[] }
  | { type: 'failed'; job: JobRecord; error: string }
  | { type: 'cancelled'; job: JobRecord };

export type JobEventSink = (event: JobEvent) => void | Promise<void>;
