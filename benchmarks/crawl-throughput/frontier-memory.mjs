/**
 * Memory of a crawl frontier: 100,000 discovered URLs held by the in-memory crawl stores, as a
 * library crawl holds them (MemoryJobStore items + seen keys, MemoryQueue messages). URLs go
 * through the crawl's own link decision (`decideLink`: parse, normalise, dedup key), 50 per
 * "page", then `addItems` and `enqueue` as PageWorker does.
 *
 *   node --expose-gc benchmarks/crawl-throughput/frontier-memory.mjs [urls=100000]
 *
 * Prints one JSON line: heap bytes per queued URL (heapUsed after gc, minus before), and the RSS.
 */
import { compileCrawlRules, decideLink, MemoryJobStore, MemoryQueue, messageFor } from '@quarry/core';

const total = Number(process.argv[2] ?? 100_000);
const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
if (!gc) throw new Error('run with node --expose-gc');

const sections = ['docs', 'guides', 'blog', 'products', 'support', 'community', 'api', 'changelog'];
const words = ['configure', 'crawler', 'frontier', 'memory', 'queue', 'install', 'deploy', 'pricing', 'team', 'storage', 'index', 'search'];
/**
 * A realistic URL of a large site: locale, section, nested path, slug, sometimes a query.
 * @param {number} index
 */
function linkFor(index) {
  const section = sections[index % sections.length];
  const slug = `${words[index % words.length]}-${words[(index * 7) % words.length]}-${words[(index * 13) % words.length]}-${index}`;
  const query = index % 5 === 0 ? `?page=${index % 37}&sort=${words[index % words.length]}` : '';
  return `/en-us/${section}/${words[(index * 3) % words.length]}/${slug}${query}`;
}

const rules = compileCrawlRules({
  startUrl: 'https://www.example-docs.com/',
  includePaths: [],
  excludePaths: [],
  crawlEntireDomain: true,
  allowExternalLinks: false,
  allowSubdomains: false,
  ignoreQueryParameters: false,
  deduplicateSimilarURLs: true,
  regexOnFullURL: false,
});
const pageUrl = new URL('https://www.example-docs.com/en-us/docs/start');
const jobs = new MemoryJobStore();
const queue = new MemoryQueue();
const jobId = '0193c6a2-7d1e-7b4c-9f00-5a3e2b1c0d9e';
await jobs.createJob({
  id: jobId,
  kind: 'crawl',
  teamId: 'library',
  status: 'scraping',
  url: rules.startUrl.href,
  request: { version: 'v2', options: { limit: total } },
  createdAt: 0,
  expiresAt: 86_400_000,
  kickoffDone: true,
});

const mb = (/** @type {number} */ bytes) => Math.round((bytes / 1048576) * 10) / 10;
gc();
const before = process.memoryUsage();
let stringBytes = 0;
for (let start = 0; start < total; start += 50) {
  const entries = [];
  for (let index = start; index < Math.min(total, start + 50); index++) {
    const decision = decideLink(rules, linkFor(index), { pageUrl, discoveryDepth: 1 });
    if (!decision.enqueue) throw new Error(`refused ${linkFor(index)}: ${decision.reason}`);
    entries.push({ url: decision.url.href, key: decision.key, discoveryDepth: decision.discoveryDepth });
    stringBytes += decision.url.href.length + decision.key.length;
  }
  const added = await jobs.addItems(jobId, entries, total);
  await queue.enqueue(added.map((entry) => messageFor(jobId, entry)));
}
gc();
const after = process.memoryUsage();
const progress = await jobs.progress(jobId);
const depth = await queue.depth();
if (progress.pending !== total || depth.waiting !== total) throw new Error(`expected ${total} queued; store ${progress.pending}, queue ${depth.waiting}`);
console.log(
  JSON.stringify({
    urls: total,
    bytesPerUrl: Math.round((after.heapUsed - before.heapUsed) / total),
    heapDeltaMb: mb(after.heapUsed - before.heapUsed),
    rssDeltaMb: mb(after.rss - before.rss),
    rssMb: mb(after.rss),
    averageUrlAndKeyChars: Math.round(stringBytes / total),
  }),
);
