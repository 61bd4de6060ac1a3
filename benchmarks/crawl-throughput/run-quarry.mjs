/**
 * Quarry variant: the library crawl (GotFetcher + WorkerPoolTransformer), every page to markdown.
 *
 *   node run-quarry.mjs <siteUrl> <outFile> [concurrency=16] [threads=0] [callingThread=0]
 *
 * threads, as QUARRY_TRANSFORM_THREADS: 1 = convert on the main thread, N = N worker threads,
 * 0 = the pool's default (a worker per CPU core but one). callingThread=1 lets the main thread
 * convert too while every worker is busy. CRAWL_EXCLUDE (comma-separated path regexes) becomes excludePaths.
 * WORKER_YOUNG_MB / WORKER_OLD_MB override the workers' heap limits (to compare GC settings).
 * `markdownHash` (sha256 of every page's URL and markdown, in sorted order) shows whether an
 * optimization changed any output. Imports the built packages (run.ts builds them first).
 */
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { GotFetcher, WorkerPoolTransformer } from '@quarry/adapters';
import { createEngine } from '@quarry/core';
import { runnerArguments, startMeasuring } from './measure.mjs';

const { siteUrl, outFile, concurrency, threads } = runnerArguments();
const useCallingThread = process.argv[6] === '1';
const finish = startMeasuring('quarry', outFile);
const isInline = threads === 1 || (threads === 0 && availableParallelism() === 1);
const young = Number(process.env.WORKER_YOUNG_MB ?? 0);
const old = Number(process.env.WORKER_OLD_MB ?? 0);
const resourceLimits = young || old ? { resourceLimits: { ...(young ? { maxYoungGenerationSizeMb: young } : {}), maxOldGenerationSizeMb: old || 128 } } : {};
const engine = createEngine({
  fetcher: new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }),
  ...(isInline ? {} : { transformer: new WorkerPoolTransformer({ ...(threads > 1 ? { workers: threads } : {}), useCallingThread, ...resourceLimits }) }),
});

let pages = 0;
let errors = 0;
let markdownChars = 0;
/** @type {string[]} */
const urls = [];
/** @type {string[]} */
const pageHashes = [];
const excludePaths = (process.env.CRAWL_EXCLUDE ?? '').split(',').filter(Boolean);
const options = {
  limit: 100_000,
  crawlEntireDomain: true,
  ...(excludePaths.length ? { excludePaths } : {}),
  scrapeOptions: { formats: /** @type {const} */ (['markdown']) },
};
for await (const event of engine.crawl(siteUrl, options, { concurrency })) {
  if (event.type === 'page') {
    pages++;
    markdownChars += event.document.markdown?.length ?? 0;
    const url = String(event.document.metadata.url ?? event.document.metadata.sourceURL);
    urls.push(url);
    pageHashes.push(
      createHash('sha256')
        .update(url)
        .update('\0')
        .update(event.document.markdown ?? '')
        .digest('hex') + url,
    );
  } else if (event.type === 'error') {
    errors++;
    if (errors <= 3) console.error(`quarry: ${event.url}: ${event.error.message}`);
  } else if (event.status !== 'completed') {
    console.error(`quarry: the crawl ended ${event.status} ${event.error ?? ''}`);
  }
}
const markdownHash = createHash('sha256').update(pageHashes.sort().join('\n')).digest('hex').slice(0, 16);
finish({ pages, errors, markdownChars, urls, markdownHash });
await engine.close();
