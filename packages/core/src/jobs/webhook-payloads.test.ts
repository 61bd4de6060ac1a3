import { describe, expect, it } from 'vitest';
import type { Ids } from '../ports/clock.js';
import type { JobRecord } from '../ports/job-store.js';
import { ManualClock } from '../ports/testing/manual-clock.js';
import type { JobEvent } from './job-events.js';
import { outboxEventsFor } from './webhook-payloads.js';

const job: JobRecord = {
  id: 'job-1',
  kind: 'crawl',
  teamId: 'team-a',
  status: 'scraping',
  url: 'https://example.com/',
  request: { version: 'v2', options: {}, webhook: { url: 'https://hooks.example/q', events: ['started', 'page', 'completed', 'failed'] } } as never,
  createdAt: 1,
  expiresAt: Number.MAX_SAFE_INTEGER,
  kickoffDone: true,
};

let next = 0;
const ids: Ids = { next: () => `w${++next}` };

describe('outboxEventsFor', () => {
  it('marks started as the job’s first event, completed, failed and cancelled as its last, and pages in between', () => {
    const document = { metadata: { sourceURL: 'https://example.com/', url: 'https://example.com/', statusCode: 200 } } as never;
    const events: JobEvent[] = [
      { type: 'started', job },
      { type: 'page', job, document },
      { type: 'page-error', job, url: 'https://example.com/x', error: { code: 'x', message: 'no' } as never },
      { type: 'completed', job },
      { type: 'failed', job, error: 'boom' },
      { type: 'cancelled', job },
    ];
    const clock = new ManualClock();
    const marked = events.map((event) => {
      const [written] = outboxEventsFor(event, clock, ids);
      return [JSON.parse(written!.body).type, written!.phase ?? 'middle'];
    });
    expect(marked).toEqual([
      ['crawl.started', 'first'],
      ['crawl.page', 'middle'],
      ['crawl.page', 'middle'],
      ['crawl.completed', 'last'],
      ['crawl.failed', 'last'],
      ['crawl.cancelled', 'last'],
    ]);
  });
});
