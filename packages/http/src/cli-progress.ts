import { createRequire } from 'node:module';
import type { SingleBar } from 'cli-progress';
import type { JobProgress } from '@quarry/core';

/** A live progress bar on stderr for long CLI work: done / queued / errors / pages per second. */
export class CrawlProgress {
  private readonly bar: SingleBar | undefined;
  private done = 0;
  private errors = 0;
  private readonly startedAt = Date.now();

  constructor(
    private readonly stream: NodeJS.WriteStream,
    limit: number,
  ) {
    if (stream.isTTY) {
      // cli-progress (17 modules) loads only for a terminal: `--json` and piped crawls never draw the bar.
      const { SingleBar } = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
      this.bar = new SingleBar({
        stream,
        format: ' {bar} {value} done | {queued} queued | {errors} errors | {rate} pages/s | {duration_formatted}',
        hideCursor: true,
        clearOnComplete: false,
      });
      this.bar.start(limit, 0, { errors: 0, queued: 0, rate: '0.0' });
    }
  }

  private queued = 0;

  page(progress: JobProgress) {
    this.done++;
    this.queued = progress.pending;
    this.update();
  }

  error(progress: JobProgress) {
    this.errors++;
    this.queued = progress.pending;
    this.update();
  }

  finish(status: string, progress: JobProgress, robotsBlocked: number) {
    this.bar?.setTotal(Math.max(this.done, 1));
    this.update();
    this.bar?.stop();
    const seconds = (Date.now() - this.startedAt) / 1000;
    this.stream.write(
      `quarry: crawl ${status}: ${progress.completed} pages, ${progress.failed} errors, ${robotsBlocked} blocked by robots.txt, ` +
        `${seconds.toFixed(1)} s (${(progress.completed / Math.max(seconds, 0.001)).toFixed(1)} pages/s), ${progress.creditsUsed} credits\n`,
    );
  }

  stop() {
    this.bar?.stop();
  }

  private update() {
    const seconds = (Date.now() - this.startedAt) / 1000;
    this.bar?.update(this.done, { errors: this.errors, queued: this.queued, rate: (this.done / Math.max(seconds, 0.001)).toFixed(1) });
  }
}
