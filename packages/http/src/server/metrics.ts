import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Fetcher, FetchRequest, FetchResponse, JobEvent, JobRecords, Queue } from '@quarry/core';

/**
 * Prometheus metrics for /metrics: requests, jobs by state, pages, queue depth, fetch latency.
 * prom-client because it brings correct histogram buckets, the text format and process metrics;
 * hand-written exposition would repeat all of it.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'quarry_http_requests_total',
    help: 'HTTP requests by route and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  readonly pages = new Counter({
    name: 'quarry_pages_total',
    help: 'Job pages finished, by outcome.',
    labelNames: ['kind', 'outcome'],
    registers: [this.registry],
  });
  readonly jobEvents = new Counter({
    name: 'quarry_job_transitions_total',
    help: 'Job state transitions.',
    labelNames: ['kind', 'state'],
    registers: [this.registry],
  });
  readonly fetchSeconds = new Histogram({
    name: 'quarry_fetch_duration_seconds',
    help: 'Fetch latency by engine and outcome.',
    labelNames: ['engine', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'quarry_' });
  }

  /** Adds the gauges read from the job store and the queue (once they exist). */
  observe(jobs: JobRecords, queue: Queue): this {
    new Gauge({
      name: 'quarry_queue_messages',
      help: 'Queue messages waiting and leased.',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const depth = await queue.depth();
        this.set({ state: 'waiting' }, depth.waiting);
        this.set({ state: 'active' }, depth.active);
      },
    });
    new Gauge({
      name: 'quarry_jobs_running',
      help: 'Jobs in the scraping state, by kind.',
      labelNames: ['kind'],
      registers: [this.registry],
      async collect() {
        for (const kind of ['crawl', 'batch_scrape'] as const) this.set({ kind }, (await jobs.listActive(kind)).length);
      },
    });
    return this;
  }

  recordEvent(event: JobEvent) {
    if (event.type === 'page') this.pages.inc({ kind: event.job.kind, outcome: 'success' });
    else if (event.type === 'page-error') this.pages.inc({ kind: event.job.kind, outcome: 'error' });
    else this.jobEvents.inc({ kind: event.job.kind, state: event.type });
  }

  /** Wraps a fetcher so every fetch is timed. */
  measure(fetcher: Fetcher): Fetcher {
    const histogram = this.fetchSeconds;
    return {
      name: fetcher.name,
      async fetch(request: FetchRequest): Promise<FetchResponse> {
        const end = histogram.startTimer({ engine: fetcher.name });
        try {
          const response = await fetcher.fetch(request);
          end({ outcome: String(response.status) });
          return response;
        } catch (error) {
          end({ outcome: 'error' });
          throw error;
        }
      },
      ...(fetcher.close ? { close: () => fetcher.close!() } : {}),
      ...(fetcher.checkTarget ? { checkTarget: (url: URL) => fetcher.checkTarget!(url) } : {}),
    };
  }
}
