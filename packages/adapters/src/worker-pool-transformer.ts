/**
 * WorkerPoolTransformer: the `HtmlTransformer` port on node:worker_threads. HTML -> markdown is
 * the CPU-heavy step of every page, so a crawl converts on worker threads while the main thread
 * keeps fetching and running the frontier.
 *
 *   transform(input) --> waiting queue --> least-busy worker (up to `postAhead` tasks queued in its port)
 *                              |               | postMessage (structured clone)
 *                              |         transform-worker: transformHtml(input)
 *                              |               | { id, output } | { id, error }
 *                              |               v
 *                              +--(useCallingThread, every worker busy)--> transformHtml(input)
 *                                  on the calling thread, one page per event-loop turn
 *
 * Default size: one worker per CPU core but one, which the main thread keeps for fetching,
 * decoding and the frontier (a third to a half of a page's CPU). Measured on 2 cores (5,000-page
 * crawl, benchmarks/crawl-throughput/README.md): one worker took no more CPU per page than two and
 * ~60 MB less memory; letting the main thread convert too cost 0.5-2 ms more CPU per page (its
 * larger heap makes the extra garbage dearer to collect), so it is off by default.
 *
 * Workers start when the first pages arrive (or at `start()`), one more only while every started
 * one is busy, and never at import time. Each worker gets pages ahead (`postAhead`), so it goes
 * from one page to the next without waiting for the main thread, which a busy crawl keeps busy
 * for several milliseconds at a time (parsing responses, collecting garbage, writing output).
 * A worker converts its pages in the order posted: only the one it is on runs against its
 * deadline, and when a worker dies only that page fails; the pages behind it go back to the queue. An idle pool does not keep the process alive. A page that
 * throws rejects its own promise with a plain Error and the worker carries on; a worker that
 * crashes is replaced on demand and the tasks it held reject.
 *
 * Hostile pages are bounded here, never moved to the calling thread (whose heap and event loop are
 * the whole server's): a page that outgrows the worker's heap, or is still converting after
 * `deadlineMs`, fails with a `TargetError` of kind `too-large`; its worker is terminated and
 * replaced, and the other page it held goes back to the queue.
 *
 * Workers run with a small heap (`defaultWorkerLimits`: 16 MB young generation, 128 MB old): a docs
 * page needs a few MB, and V8 grows an unbounded worker heap with the garbage rate, not the need.
 * Measured on the 5,000-page crawl (benchmarks/crawl-throughput): peak RSS 304 -> 278 MB at the same
 * CPU per page. The young generation was 8 MB until the fourth pass of issue 14: a page allocates
 * ~1.4 MB in the transform, so the worker scavenged every few pages; at 16 MB the crawl of cmake-doc
 * took ~1 ms less CPU per page (worker and V8's GC threads) for ~+10 MB peak RSS; 24 and 32 MB
 * saved no more and cost up to +60 MB (benchmarks/crawl-real-site/README.md).
 *
 * A page too long for that heap converts on a worker of its own, started for it and ended after
 * it, with a heap and a deadline scaled to its length up to `largePageHeapMb`; one such page at a
 * time, so the process holds at most one large heap. Too long: its estimated working set
 * (`heapMbFor`, ~40 bytes per character of HTML) is over the workers' heap. Its own worker gets the
 * workers' heap plus that estimate. Measured on nodejs-doc's `all.html` (5.8 M characters, 119,000
 * elements, every API page in one): it fails at 128 MB of old space, converts at 160 with the
 * collector thrashing (6.4 s CPU) and at 192-256 in 3.4-3.7 s. cmake-doc's `genindex.html` (2.8 M
 * characters, estimate 105 MB) converts in the pool's 128 MB and stays there: sent to a worker of
 * its own it cost the crawl ~55 MB more peak RSS. A hostile page stays bounded by the cap and the
 * deadline.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { TargetError, transformHtml, type TargetErrorKind, type HtmlTransformer, type HtmlTransformInput, type HtmlTransformOutput } from '@quarry/core';

export interface WorkerPoolTransformerOptions {
  /** Worker threads at most. Default: one per CPU core but one (`os.availableParallelism() - 1`), at least 1. */
  workers?: number;
  /**
   * When every worker is busy and pages wait, the calling thread converts one of them itself, one
   * per event-loop turn (so its I/O callbacks run in between). Default false (see above).
   */
  useCallingThread?: boolean;
  /** Heap limits of each worker (default `defaultWorkerLimits`); a page that exceeds them fails as too large. */
  resourceLimits?: ResourceLimits;
  /** Longest a page may take to convert (ms, default `defaultTransformDeadlineMs`); past it the page fails as too large. */
  deadlineMs?: number;
  /**
   * Most old-generation heap (MB) a page too long for `resourceLimits` may get on a worker of its
   * own (default 4x the workers' old generation, 512 MB by default); its deadline scales by the
   * same factor. Set it to the workers' old generation to refuse such pages instead.
   */
  largePageHeapMb?: number;
  /** The worker script. Default: the built `transform-worker.js` beside this module (see `workerScript`). */
  workerUrl?: URL;
}

/** Main thread -> worker. */
export interface WorkerRequest {
  id: number;
  input: HtmlTransformInput;
}

/** Worker -> main thread: once `ready` after loading, then one answer per request. */
export type WorkerReply =
  | { ready: true }
  | { id: number; output: HtmlTransformOutput }
  | { id: number; error: { name: string; message: string; stack?: string; details?: Record<string, unknown> } };

interface Task {
  id: number;
  input: HtmlTransformInput;
  resolve: (output: HtmlTransformOutput) => void;
  reject: (error: Error) => void;
  /** Set while the task is the one its worker is converting (the first it holds). */
  timer?: NodeJS.Timeout;
}

interface PoolWorker {
  worker: Worker;
  /** Tasks posted to this worker and not answered yet, in the order it converts them. */
  tasks: Map<number, Task>;
  /** Characters of HTML in `tasks`. */
  postedChars: number;
  isReady: boolean;
  isGone: boolean;
  /** Started for one large page and ended after it; not in the pool's `workers`. */
  isDedicated: boolean;
  resourceLimits: ResourceLimits;
  deadlineMs: number;
}

/**
 * Tasks posted to one worker at once: the one converting and the next ones waiting in its port,
 * so the worker never idles while the main thread is busy. It was 2 until issue 14's eighth pass:
 * on a cmake-doc crawl (2 cores) the worker's event loop then sat idle 25-40 % of the crawl with
 * pages waiting in the pool, because the main thread, busy, had not yet read the answers and
 * posted the next page; at 8 the idle time fell by half (benchmarks/crawl-real-site/README.md).
 */
const postAhead = 8;
/**
 * Most characters of HTML posted ahead to one worker (the page it converts first is always
 * posted): each waits serialized in the port, so long pages are not all copied there at once.
 */
const postAheadChars = 1_000_000;

export const defaultWorkerLimits: ResourceLimits = { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 };

/** A 40 KB page converts in ~5 ms and a 5 MB one in well under a second; a page still going after this is hostile. */
export const defaultTransformDeadlineMs = 20_000;
/** What a worker may take to load before the deadline of the pages it holds starts. */
const workerStartupMs = 30_000;

/**
 * Old-generation heap (MB) converting `html` is estimated to need: nodejs-doc's `all.html` keeps
 * ~26 bytes per character live at its peak (it converts at 160 MB, not at 128); 40 leaves the
 * collector room to work without thrashing.
 */
export function heapMbFor(html: string): number {
  return Math.ceil((html.length * 40) / (1024 * 1024));
}

export class WorkerPoolTransformer implements HtmlTransformer {
  private readonly maxWorkers: number;
  private readonly useCallingThread: boolean;
  private readonly resourceLimits: ResourceLimits;
  private readonly deadlineMs: number;
  private readonly largePageHeapMb: number;
  private readonly workerUrl: URL | undefined;
  private readonly workers: PoolWorker[] = [];
  private waiting: Task[] = [];
  /** Pages too long for the workers' heap, each waiting for a worker of its own. */
  private largeWaiting: Task[] = [];
  private large: PoolWorker | undefined;
  private nextId = 1;
  private isClosed = false;
  private isInlineScheduled = false;

  constructor(options: WorkerPoolTransformerOptions = {}) {
    const workers = options.workers ?? Math.max(1, availableParallelism() - 1);
    if (!Number.isInteger(workers) || workers < 1) {
      throw new RangeError(`\`workers\` must be an integer of at least 1; got ${workers}`);
    }
    this.maxWorkers = workers;
    this.useCallingThread = options.useCallingThread ?? false;
    this.resourceLimits = options.resourceLimits ?? defaultWorkerLimits;
    this.deadlineMs = options.deadlineMs ?? defaultTransformDeadlineMs;
    if (!(this.deadlineMs > 0)) throw new RangeError(`\`deadlineMs\` must be a positive number; got ${this.deadlineMs}`);
    this.largePageHeapMb = options.largePageHeapMb ?? 4 * this.baseHeapMb;
    this.workerUrl = options.workerUrl;
  }

  /** Workers of the pool started and alive, not counting a large page's own (for tests and status pages). */
  get size(): number {
    return this.workers.length;
  }

  private get baseHeapMb(): number {
    return this.resourceLimits.maxOldGenerationSizeMb ?? defaultWorkerLimits.maxOldGenerationSizeMb!;
  }

  /**
   * Starts the first worker now, before any page: for a caller about to convert pages (a CLI
   * crawl), so the worker's load (~0.2 s of module loading on its own thread) overlaps the first
   * fetches instead of delaying the first page's conversion, on which the crawl's next links wait.
   * Does nothing once a worker is started or the pool is closed. The idle worker does not keep the
   * process alive.
   */
  start(): void {
    if (this.isClosed || this.workers.length > 0) return;
    const slot = this.spawn(this.resourceLimits, this.deadlineMs, false);
    slot.worker.unref();
    this.workers.push(slot);
  }

  /**
   * Converts one page on a worker thread (or on the calling thread, see `useCallingThread`).
   * Rejects with a plain Error when the page throws, when its worker crashes while holding it, or
   * when the pool is (or gets) closed.
   */
  transform(input: HtmlTransformInput): Promise<HtmlTransformOutput> {
    if (this.isClosed) return Promise.reject(new Error('WorkerPoolTransformer is closed'));
    return new Promise((resolve, reject) => {
      const task = { id: this.nextId++, input, resolve, reject };
      if (heapMbFor(input.html) > this.baseHeapMb && this.largePageHeapMb > this.baseHeapMb) this.largeWaiting.push(task);
      else this.waiting.push(task);
      this.dispatch();
    });
  }

  /** Terminates every worker; tasks not answered yet reject. Idempotent. */
  async close(): Promise<void> {
    this.isClosed = true;
    const closed = new Error('WorkerPoolTransformer is closed');
    for (const task of [...this.waiting, ...this.largeWaiting]) task.reject(closed);
    this.waiting = [];
    this.largeWaiting = [];
    const workers = this.workers.splice(0);
    if (this.large) workers.push(this.large);
    this.large = undefined;
    for (const slot of workers) {
      slot.isGone = true;
      for (const task of slot.tasks.values()) {
        clearTimeout(task.timer);
        task.reject(closed);
      }
      slot.tasks.clear();
    }
    await Promise.all(workers.map((slot) => slot.worker.terminate()));
  }

  /**
   * Posts waiting tasks to the least busy workers, starting workers while all are busy; what is
   * left waits for a worker or, on the next event-loop turn, for the calling thread.
   */
  private dispatch(): void {
    this.dispatchLarge();
    while (this.waiting.length > 0) {
      const slot = this.pickWorker(this.waiting[0]!);
      if (!slot) break;
      this.post(slot, this.waiting.shift()!);
    }
    if (this.waiting.length > 0 && this.useCallingThread && !this.isInlineScheduled) {
      this.isInlineScheduled = true;
      setImmediate(() => this.convertInline());
    }
  }

  /** The next large page, on a worker of its own sized to it, once the previous one is done. */
  private dispatchLarge(): void {
    if (this.large || this.largeWaiting.length === 0) return;
    const task = this.largeWaiting.shift()!;
    const heapMb = Math.min(this.largePageHeapMb, this.baseHeapMb + heapMbFor(task.input.html));
    const deadlineMs = Math.round((this.deadlineMs * heapMb) / this.baseHeapMb);
    const slot = this.spawn({ ...this.resourceLimits, maxOldGenerationSizeMb: heapMb }, deadlineMs, true);
    this.large = slot;
    this.post(slot, task);
  }

  /** Posts a task to a worker; the first task a worker holds is the one it converts, and runs against the deadline. */
  private post(slot: PoolWorker, task: Task): void {
    if (slot.tasks.size === 0) slot.worker.ref();
    slot.tasks.set(task.id, task);
    slot.postedChars += task.input.html.length;
    if (slot.tasks.size === 1) this.arm(slot, task);
    slot.worker.postMessage({ id: task.id, input: task.input } satisfies WorkerRequest);
  }

  /** The task a worker converts now (the first posted and not answered), after its answers so far. */
  private armHead(slot: PoolWorker): void {
    const head = slot.tasks.values().next().value;
    if (head) this.arm(slot, head);
  }

  /** Takes a worker that is gone out of the pool (or out of the large page's place). */
  private remove(slot: PoolWorker): void {
    slot.isGone = true;
    if (slot === this.large) this.large = undefined;
    const at = this.workers.indexOf(slot);
    if (at !== -1) this.workers.splice(at, 1);
  }

  /** The calling thread's share: one waiting page, unless a worker has room by now. */
  private convertInline(): void {
    this.isInlineScheduled = false;
    this.dispatch();
    const task = this.waiting.shift();
    if (!task) return;
    try {
      task.resolve(transformHtml(task.input));
    } catch (error) {
      task.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.dispatch();
  }

  /**
   * A page passed its deadline: it fails as too large, its worker is terminated (the only way to
   * stop a running conversion) and replaced on demand, and the worker's other page goes back to
   * the front of the queue.
   */
  private expire(slot: PoolWorker, task: Task): void {
    if (slot.isGone || !slot.tasks.has(task.id)) return;
    this.remove(slot);
    slot.tasks.delete(task.id);
    task.reject(tooLarge(`converting it took longer than ${slot.deadlineMs} ms`));
    const others = [...slot.tasks.values()];
    for (const other of others) clearTimeout(other.timer);
    slot.tasks.clear();
    slot.postedChars = 0;
    this.waiting.unshift(...others);
    void slot.worker.terminate();
    this.dispatch();
  }

  /**
   * (Re)starts the task's deadline on its worker, with time to load while the worker is not ready.
   * Only a worker's first task is armed: the ones behind it start their deadline when it is answered.
   */
  private arm(slot: PoolWorker, task: Task): void {
    clearTimeout(task.timer);
    task.timer = setTimeout(() => this.expire(slot, task), slot.deadlineMs + (slot.isReady ? 0 : workerStartupMs));
    task.timer.unref();
  }

  private pickWorker(task: Task): PoolWorker | undefined {
    let best: PoolWorker | undefined;
    for (const slot of this.workers) if (!best || slot.tasks.size < best.tasks.size) best = slot;
    if ((!best || best.tasks.size > 0) && this.workers.length < this.maxWorkers) {
      const slot = this.spawn(this.resourceLimits, this.deadlineMs, false);
      this.workers.push(slot);
      return slot;
    }
    if (!best) return undefined;
    const hasRoom = best.tasks.size === 0 || (best.tasks.size < postAhead && best.postedChars + task.input.html.length <= postAheadChars);
    return hasRoom ? best : undefined;
  }

  private spawn(resourceLimits: ResourceLimits, deadlineMs: number, isDedicated: boolean): PoolWorker {
    const worker = new Worker(this.workerUrl ?? workerScript(), { resourceLimits });
    const slot: PoolWorker = { worker, tasks: new Map(), postedChars: 0, isReady: false, isGone: false, isDedicated, resourceLimits, deadlineMs };
    worker.on('message', (reply: WorkerReply) => this.answer(slot, reply));
    worker.on('error', (error) => this.retire(slot, error));
    worker.on('exit', (code) => this.retire(slot, new Error(`exited with code ${code}`)));
    return slot;
  }

  private answer(slot: PoolWorker, reply: WorkerReply): void {
    if ('ready' in reply) {
      slot.isReady = true;
      // The deadline is the page's conversion time: it starts once the worker can work, not while
      // it loads (slow on a busy machine).
      this.armHead(slot);
      return;
    }
    const task = slot.tasks.get(reply.id);
    if (!task) return;
    clearTimeout(task.timer);
    slot.tasks.delete(reply.id);
    slot.postedChars -= task.input.html.length;
    // The worker is on its next page now.
    this.armHead(slot);
    if (slot.isDedicated) {
      // Its large heap goes with it.
      this.remove(slot);
      void slot.worker.terminate();
    } else if (slot.tasks.size === 0) slot.worker.unref();
    if ('output' in reply) task.resolve(reply.output);
    else task.reject(rebuildError(reply.error));
    this.dispatch();
  }

  /**
   * A worker died: it leaves the pool and the page it was converting (the first it held) rejects;
   * the pages posted behind it, not started, go back to the front of the queue for the others or
   * a replacement. One that died before it was ready (its script failed to load) would die again,
   * so its tasks and the waiting ones reject with it instead.
   */
  private retire(slot: PoolWorker, cause: Error): void {
    if (slot.isGone) return;
    this.remove(slot);
    const outOfMemory = (cause as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
    // A worker that ran out of memory was converting, even if its `ready` has not been read yet.
    if (outOfMemory) slot.isReady = true;
    const error = new Error(`The HTML transform worker ${slot.isReady ? 'crashed' : 'failed to start'}: ${cause.message}`, { cause });
    const heapMb = (slot.resourceLimits.maxOldGenerationSizeMb ?? 0) + (slot.resourceLimits.maxYoungGenerationSizeMb ?? 0);
    // The page being converted is the first posted: out of memory, it is too large; otherwise it
    // fails with the crash. The ones waiting behind it go back to the queue.
    const [running, ...behind] = [...slot.tasks.values()];
    for (const task of slot.tasks.values()) clearTimeout(task.timer);
    slot.tasks.clear();
    slot.postedChars = 0;
    running?.reject(outOfMemory ? tooLarge(`converting it needs more than the transform worker's ${heapMb} MB heap`) : error);
    if (slot.isReady) this.waiting.unshift(...behind);
    else for (const task of behind) task.reject(error);
    if (!slot.isReady) {
      for (const task of [...this.waiting, ...this.largeWaiting]) task.reject(error);
      this.waiting = [];
      this.largeWaiting = [];
    }
    this.dispatch();
  }
}

function tooLarge(why: string): TargetError {
  return new TargetError('too-large', `The page is too large to convert: ${why}.`, { details: { limit: 'transform' } });
}

function rebuildError(remote: { name: string; message: string; stack?: string; details?: Record<string, unknown> }): Error {
  // A page over a limit (page-limits.ts) is the page's own failure: it stays a TargetError.
  const kind = remote.details?.kind;
  if (remote.name === 'TargetError' && typeof kind === 'string') return new TargetError(kind as TargetErrorKind, remote.message, { details: remote.details });
  const error = new Error(remote.message);
  error.name = remote.name;
  if (remote.stack) error.stack = remote.stack;
  return error;
}

/**
 * Where the worker code is. Built (dist), this module and `transform-worker.js` sit side by side.
 * From source (vitest, tsx) this module is a .ts file and Node cannot start a .ts worker, so the
 * worker is a small ESM bootstrap that registers tsx, points `@quarry/core` (and `/transform`) at core's sources (as
 * the vitest aliases do, so tests never run a stale build), and imports `transform-worker.ts`.
 */
function workerScript(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./transform-worker.js', here);
  const entry = new URL('./transform-worker.ts', here);
  const tsx = tsxApiUrl(entry);
  const coreSource = new URL('../../core/src/index.ts', here);
  const sources = { '@quarry/core': coreSource.href, '@quarry/core/transform': new URL('../../core/src/transform.ts', here).href };
  const alias = `const sources = ${JSON.stringify(sources)};
  export function resolve(specifier, context, next) {
    return next(sources[specifier] ?? specifier, context);
  }`;
  const bootstrap = [
    `import { register } from 'node:module';`,
    `const { register: registerTsx } = await import(${JSON.stringify(tsx.href)});`,
    `registerTsx();`,
    existsSync(fileURLToPath(coreSource)) ? `register(${JSON.stringify(dataUrl(alias).href)});` : '',
    `await import(${JSON.stringify(entry.href)});`,
  ].join('\n');
  return dataUrl(bootstrap);
}

/**
 * tsx's ESM API (`tsx/esm/api`, import condition). Its plain `--import tsx` entry registers on the
 * main thread only, so a worker registers explicitly.
 */
function tsxApiUrl(from: URL): URL {
  const require = createRequire(from);
  const manifestPath = require.resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const api = manifest.exports['./esm/api']?.import.default;
  if (!api) throw new Error(`tsx at ${manifestPath} has no ./esm/api export; transform workers cannot run from source`);
  return new URL(api, pathToFileURL(manifestPath));
}

function dataUrl(code: string): URL {
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}
