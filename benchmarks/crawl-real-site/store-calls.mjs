/**
 * Counts the embedded stores' calls in a `quarry serve` process and their wall time, printed to
 * stderr when the server gets SIGTERM (run-server.mjs sends it at the end):
 *
 *   SERVER_NODE_ARGS="--import $PWD/benchmarks/crawl-real-site/store-calls.mjs" node benchmarks/crawl-real-site/run-server.mjs URL out.json 16
 *
 * Wraps the prototypes of the built `@quarry/storage` classes (the server loads the same module).
 * Wall time, not CPU: on a loaded machine it includes the time the main thread waited for a core.
 */
import { SqliteDocumentCache, SqliteJobStore, SqlitePageIndex, SqliteQueue } from '../../packages/storage/dist/index.js';

const stats = new Map();
function wrap(prototype, name, label) {
  const original = prototype[name];
  prototype[name] = async function (...args) {
    const started = process.hrtime.bigint();
    const result = await original.apply(this, args);
    const entry = stats.get(label) ?? { calls: 0, ns: 0n, empty: 0 };
    entry.calls++;
    entry.ns += process.hrtime.bigint() - started;
    if (Array.isArray(result) && result.length === 0) entry.empty++;
    stats.set(label, entry);
    return result;
  };
}
for (const name of ['lease', 'ack', 'release', 'enqueue']) wrap(SqliteQueue.prototype, name, `queue.${name}`);
for (const name of ['getJob', 'getItem', 'addItems', 'finishItem', 'progress']) wrap(SqliteJobStore.prototype, name, `jobs.${name}`);
wrap(SqliteDocumentCache.prototype, 'put', 'documents.put');
wrap(SqlitePageIndex.prototype, 'add', 'pageIndex.add');
process.once('SIGTERM', () => {
  for (const [label, entry] of stats) process.stderr.write(`${label}: ${entry.calls} calls, ${(Number(entry.ns) / 1e6).toFixed(0)} ms, ${entry.empty} empty\n`);
});
