/**
 * Where a crawl's JavaScript threads wait: a preload (NODE_OPTIONS=--import) that samples, in every
 * thread of the process (the main thread and each worker), the event loop's idle time
 * (`performance.eventLoopUtilization`: time blocked waiting for I/O or messages, i.e. with nothing to
 * do, which a loaded machine does not inflate), the thread's CPU and its run-queue wait
 * (/proc/thread-self/schedstat) every 250 ms, and appends one JSON line per thread at exit to
 * THREAD_IDLE_LOG. Run it as a driver to spawn one CLI crawl with the preload and print the sums:
 *
 *   node benchmarks/crawl-real-site/thread-idle.mjs <siteUrl> [exclude-regexes] [concurrency=16]
 *
 * or as a preload of another runner (THREAD_IDLE_LOG=<file> NODE_OPTIONS=--import=<this file>), then
 * `node thread-idle.mjs --summarize <file>`.
 *
 * Per thread: `idleMs` (event loop waiting), `cpuMs`, `runQueueMs`, and `idleShare` per quarter of
 * the crawl (idle time / wall time of that quarter), to see whether a thread starves at the start,
 * throughout or at the end.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, threadId } from 'node:worker_threads';

const here = fileURLToPath(import.meta.url);

if (process.env.THREAD_IDLE_LOG) {
  // The preload, in each thread.
  const log = process.env.THREAD_IDLE_LOG;
  const thread = `${process.pid} ${isMainThread ? 'main' : `worker ${threadId}`}`;
  const schedstat = () => {
    try {
      return readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    } catch {
      return [0, 0];
    }
  };
  let last = performance.eventLoopUtilization();
  // One line per sample: a worker that is terminated runs no exit handler.
  const sample = () => {
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, last);
    last = now;
    const [run, wait] = schedstat();
    const row = [thread, Math.round(performance.timeOrigin + performance.now()), Math.round(delta.idle), Math.round(run / 1e6), Math.round(wait / 1e6)];
    appendFileSync(log, `${JSON.stringify(row)}\n`);
  };
  setInterval(sample, 250).unref();
  process.once('exit', sample);
} else if (process.argv[1] === here && process.argv[2] === '--summarize') {
  summarize(process.argv[3], undefined);
} else if (process.argv[1] === here) {
  // The driver.
  const { spawnCliCrawl } = await import('./cli-crawl.mjs');
  const [siteUrl, exclude, concurrency = '16'] = process.argv.slice(2);
  if (!siteUrl) throw new Error('usage: thread-idle.mjs <siteUrl> [exclude-regexes] [concurrency]');
  const folder = mkdtempSync(join(tmpdir(), 'thread-idle-'));
  const log = join(folder, 'threads.jsonl');
  process.env.THREAD_IDLE_LOG = log;
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --import=${new URL(import.meta.url).href}`;
  const t0 = performance.now();
  const child = spawnCliCrawl(siteUrl, { exclude, concurrency, stdout: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  summarize(log, Math.round(performance.now() - t0));
  rmSync(folder, { recursive: true, force: true });
}

/** Prints each thread's sums and the time both JavaScript threads waited at once. */
function summarize(log, wallMs) {
  let rows = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const start = Math.min(...rows.map((row) => row[1]));
  const end = Math.max(...rows.map((row) => row[1]));
  // The crawling process is the one with workers (a runner that spawned it may have the preload too).
  const crawler = rows.find((row) => row[0].includes('worker'))?.[0].split(' ')[0];
  rows = rows.filter((row) => row[0].split(' ')[0] === crawler).map(([thread, ...rest]) => [thread.slice(thread.indexOf(' ') + 1), ...rest]);
  const threads = new Map();
  for (const row of rows) threads.set(row[0], [...(threads.get(row[0]) ?? []), row]);
  for (const [thread, samples] of threads) {
    const quarter = Math.max(1, (end - start) / 4);
    const quarters = [0, 0, 0, 0];
    for (const [, t, idle] of samples) quarters[Math.min(3, Math.floor((t - start) / quarter))] += idle;
    const [, , , cpuMs, runQueueMs] = samples.at(-1);
    const idleMs = samples.reduce((sum, s) => sum + s[2], 0);
    console.log(
      JSON.stringify({
        thread,
        aliveMs: samples.at(-1)[1] - samples[0][1] + 250,
        idleMs,
        cpuMs,
        runQueueMs,
        idleShare: quarters.map((q) => Number((q / quarter).toFixed(2))),
      }),
    );
  }
  // Time the main thread and the first worker waited at once, per 250 ms bucket: the crawl then
  // waits on neither thread (on the site's server, or on nothing queued).
  const buckets = new Map();
  for (const [thread, t, idle] of rows) {
    const bucket = Math.round((t - start) / 250);
    const entry = buckets.get(bucket) ?? {};
    const key = thread === 'main' ? 'main' : 'worker';
    entry[key] = Math.max(entry[key] ?? 0, idle);
    buckets.set(bucket, entry);
  }
  let bothIdleMs = 0;
  for (const { main = 0, worker = 0 } of buckets.values()) bothIdleMs += Math.min(main, worker);
  console.log(JSON.stringify({ ...(wallMs ? { wallMs } : {}), bothIdleMs }));
}
