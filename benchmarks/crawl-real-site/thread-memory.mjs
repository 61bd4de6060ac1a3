/**
 * Per-thread memory of a crawl (issue 14, sixth pass): preloaded with `--import` into the CLI (and,
 * as workers inherit NODE_OPTIONS, into its transform workers), it samples each thread's V8 heap
 * (`v8.getHeapStatistics`, per space) every 20 ms, and on the main thread VmRSS; it appends JSON
 * lines to THREAD_MEMORY_OUT: every sample with THREAD_MEMORY_TRACE=1, each thread's peak (by RSS
 * on the main thread, by heap on a worker) at exit and each second, the time playwright-core loads,
 * and each output line over 100,000 characters (a large page's document).
 *
 *   cd benchmarks/crawl-real-site
 *   CRAWL_EXCLUDE=/_sources/,/_downloads/,/_images/,/_static/ THREAD_MEMORY_TRACE=1 \
 *     NODE_OPTIONS=--import=$PWD/thread-memory.mjs node run-cli.mjs URL out.json 16
 *
 * A worker converting a page synchronously cannot sample: its peak during a long page is missed
 * (read VmRSS on the main thread instead). The runner itself loads the hook too (its lines are the
 * ones with the smallest RSS). The hook costs a few MB per thread: compare runs that both carry it.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

const out = process.env.THREAD_MEMORY_OUT ?? 'thread-memory.jsonl';
const trace = process.env.THREAD_MEMORY_TRACE === '1';
const started = Date.now();
const mb = (bytes) => Math.round((bytes / 1048576) * 10) / 10;
let peak;
let written;
/** Fields that are not bytes (the rest are written in MB). */
const plain = new Set(['t', 'playwrightLoadedAt', 'largeDocument']);

function sample() {
  const heap = v8.getHeapStatistics();
  const record = { t: Date.now() - started, total: heap.total_heap_size, used: heap.used_heap_size, external: heap.external_memory };
  for (const space of v8.getHeapSpaceStatistics()) record[space.space_name] = space.space_size;
  if (isMainThread) record.rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  const key = isMainThread ? 'rss' : 'total';
  if (!peak || record[key] > peak[key]) peak = record;
  return record;
}

function write(record) {
  const line = { thread: threadId };
  for (const [key, value] of Object.entries(record)) line[key] = plain.has(key) || typeof value !== 'number' ? value : mb(value);
  appendFileSync(out, `${JSON.stringify(line)}\n`);
}

setInterval(() => {
  const record = sample();
  if (trace) write(record);
}, 20).unref();
const writePeak = () => {
  if (!peak || peak === written) return;
  written = peak;
  write({ peak: true, ...peak });
};
process.on('exit', writePeak);
if (!isMainThread) setInterval(writePeak, 1000).unref();

if (isMainThread) {
  const cache = createRequire(import.meta.url).cache;
  const watch = setInterval(() => {
    if (Object.keys(cache).some((path) => path.includes('playwright-core'))) {
      write({ playwrightLoadedAt: Date.now() - started });
      clearInterval(watch);
    }
  }, 20);
  watch.unref();
  const stdoutWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, ...rest) => {
    if (typeof chunk === 'string' && chunk.length > 100_000) {
      write({ largeDocument: chunk.length, t: Date.now() - started, url: /"url":"([^"]+)"/.exec(chunk.slice(-3000))?.[1] });
    }
    return stdoutWrite(chunk, ...rest);
  };
}
