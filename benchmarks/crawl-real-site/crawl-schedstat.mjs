/**
 * Whether a CLI crawl's wall time beyond its CPU is sleep (waiting on I/O, timers, another thread)
 * or run-queue wait (runnable, but the cores were busy with other processes): polls
 * /proc/<pid>/task/<tid>/schedstat (CPU ns, run-queue wait ns) of every thread of the CLI every 20 ms.
 *
 *   node crawl-schedstat.mjs <siteUrl>     (CRAWL_EXCLUDE as run-cli.mjs; serve the site with static-server.mjs)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnCliCrawl } from './cli-crawl.mjs';

const [siteUrl] = process.argv.slice(2);
if (!siteUrl) throw new Error('usage: crawl-schedstat.mjs <siteUrl>');
const started = performance.now();
const child = spawnCliCrawl(siteUrl, { stdout: 'ignore' });
const threads = new Map();
const sample = () => {
  try {
    for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
      const [run, wait] = readFileSync(`/proc/${child.pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      const name = readFileSync(`/proc/${child.pid}/task/${tid}/comm`, 'utf8').trim();
      threads.set(tid, { name, run, wait });
    }
  } catch {}
};
const timer = setInterval(sample, 20);
await new Promise((resolve) => child.once('exit', resolve));
clearInterval(timer);
const wallMs = performance.now() - started;
const ms = (ns) => Math.round(ns / 1e6);
const byName = {};
for (const { name, run, wait } of threads.values()) {
  byName[name] ??= { cpuMs: 0, runQueueWaitMs: 0 };
  byName[name].cpuMs += ms(run);
  byName[name].runQueueWaitMs += ms(wait);
}
// The busiest threads: the main thread, the transform worker, V8's platform threads.
const busiest = [...threads.entries()]
  .sort((a, b) => b[1].run - a[1].run)
  .slice(0, 6)
  .map(([tid, { name, run, wait }]) => `${tid === String(child.pid) ? 'main' : name} ${ms(run)}/${ms(wait)}`);
console.log(JSON.stringify({ wallMs: Math.round(wallMs), byName, busiestCpuMsRunQueueWaitMs: busiest }));
