/**
 * What the transform worker's start costs: wall time from `new Worker` (the built
 * `packages/adapters/dist/transform-worker.js`, the pool's default heap) to its `ready` message,
 * and the process CPU over that span (every thread), for 6 starts one after the other.
 *
 *   node benchmarks/crawl-real-site/worker-start.mjs
 */
import { Worker } from 'node:worker_threads';

const url = new URL('../../packages/adapters/dist/transform-worker.js', import.meta.url);
const rows = [];
for (let i = 0; i < 6; i++) {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const worker = new Worker(url, { resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 128 } });
  await new Promise((ready) => worker.once('message', ready));
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  rows.push(`${wall.toFixed(0)} ms wall / ${((used.user + used.system) / 1000).toFixed(0)} ms CPU`);
  await worker.terminate();
}
console.log(rows.join(', '));
