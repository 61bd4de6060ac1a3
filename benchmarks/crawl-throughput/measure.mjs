/**
 * What every variant runner reports: pages, wall time and CPU of the crawl window, the process's
 * peak RSS, and the URLs it crawled. The parent (run.ts) reads it from the file given as argument.
 *
 * The runners are plain JavaScript so that no TypeScript loader (tsx adds ~80 MB of RSS and a
 * loader thread) is measured with them.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * @typedef {object} VariantResult
 * @property {string} variant
 * @property {number} pages
 * @property {number} errors
 * @property {number} wallMs
 * @property {number} cpuMs user + system CPU of the whole process (every thread) during the crawl
 * @property {{ mainMs: number, newThreadsMs: number, otherThreadsMs: number } | undefined} threads
 *   CPU by thread (Linux): the main thread, threads started during the crawl (transform workers), the rest (GC, libuv)
 * @property {number} maxRssMb peak resident set of the process over its life
 * @property {number} markdownChars
 * @property {string[]} urls
 */

/** @returns {{ siteUrl: string, outFile: string, concurrency: number, threads: number }} */
export function runnerArguments() {
  const [siteUrl, outFile, concurrency, threads] = process.argv.slice(2);
  if (!siteUrl || !outFile) throw new Error('usage: <runner> <siteUrl> <outFile> [concurrency] [threads]');
  return { siteUrl, outFile, concurrency: Number(concurrency ?? 16), threads: Number(threads ?? 0) };
}

/** CPU milliseconds of each thread of this process, by thread id (Linux; empty elsewhere). */
function threadCpu() {
  /** @type {Map<string, number>} */
  const times = new Map();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    }
  } catch {
    // not Linux: no breakdown
  }
  return times;
}

/**
 * Starts the clock and the CPU counters; call the returned function when the crawl is done (before
 * closing anything, so the threads it started are still there to be counted).
 * @param {string} variant
 * @param {string} outFile
 */
export function startMeasuring(variant, outFile) {
  const cpuStart = process.cpuUsage();
  const threadsStart = threadCpu();
  const started = performance.now();
  /** @param {{ pages: number, errors: number, markdownChars: number, urls: string[] }} counts */
  return (counts) => {
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuStart);
    const threadsEnd = threadCpu();
    const main = String(process.pid);
    let mainMs = 0;
    let newThreadsMs = 0;
    let otherThreadsMs = 0;
    for (const [tid, ms] of threadsEnd) {
      const before = threadsStart.get(tid);
      if (tid === main) mainMs = ms - (before ?? 0);
      else if (before === undefined) newThreadsMs += ms;
      else otherThreadsMs += ms - before;
    }
    /** @type {VariantResult} */
    const result = {
      variant,
      ...counts,
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      threads: threadsEnd.size > 0 ? { mainMs, newThreadsMs, otherThreadsMs } : undefined,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    };
    writeFileSync(outFile, JSON.stringify(result));
  };
}
