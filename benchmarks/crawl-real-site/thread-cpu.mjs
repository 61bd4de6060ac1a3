/**
 * CPU per thread of one `quarry crawl --json` (Linux /proc/<pid>/task), to see where a small site's
 * CPU goes: the main thread, the transform workers, V8's GC/compiler helpers, libuv's pool.
 * Polls every 20 ms and keeps each thread's last reading; threads of the same name are summed
 * (`busiestMs`: the six busiest threads, whatever their name).
 *
 *   node benchmarks/crawl-real-site/thread-cpu.mjs <startUrl> [exclude-regexes]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnCliCrawl } from './cli-crawl.mjs';

const [startUrl, exclude] = process.argv.slice(2);
const child = spawnCliCrawl(startUrl, { exclude, stdout: 'ignore' });
/** @type {Map<string, {name: string, cpuMs: number}>} */
const threads = new Map();
const poll = () => {
  let tids = [];
  try {
    tids = readdirSync(`/proc/${child.pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${child.pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
      threads.set(tid, { name: tid === String(child.pid) ? 'main' : name, cpuMs });
    } catch {}
  }
};
const timer = setInterval(poll, 20);
await new Promise((done) => child.once('exit', done));
clearInterval(timer);
const byName = {};
for (const { name, cpuMs } of threads.values()) byName[name] = (byName[name] ?? 0) + cpuMs;
const total = Object.values(byName).reduce((a, b) => a + b, 0);
const busiest = [...threads.values()].map((t) => t.cpuMs).sort((a, b) => b - a);
console.log(
  JSON.stringify({
    totalMs: total,
    threads: busiest.length,
    busiestMs: busiest.slice(0, 6),
    byName: Object.fromEntries(Object.entries(byName).sort((a, b) => b[1] - a[1])),
  }),
);
