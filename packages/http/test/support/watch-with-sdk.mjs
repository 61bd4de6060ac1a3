// Run with Node 22 by crawl-watch.test.ts: watches a crawl the way Firecrawl's SDK does, over the
// global WebSocket, and prints what it saw as one JSON line. Usage: node watch-with-sdk.mjs MODE API_URL API_KEY TARGET
import Firecrawl, { FirecrawlAppV1 } from '@mendable/firecrawl-js';

const [mode, apiUrl, apiKey, target] = process.argv.slice(2);
const out = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const giveUp = setTimeout(() => {
  out({ error: 'timed out' });
  process.exit(2);
}, 45_000);

if (mode === 'v2') {
  const firecrawl = new Firecrawl({ apiKey, apiUrl });
  const started = await firecrawl.startCrawl(target, { limit: 10 });
  const watcher = firecrawl.watcher(started.id, { kind: 'crawl', pollInterval: 60 });
  const urls = [];
  watcher.on('document', (document) => urls.push(document.metadata?.sourceURL));
  const end = await new Promise((resolve) => {
    watcher.on('done', (state) => resolve({ event: 'done', status: state.status }));
    watcher.on('error', (state) => resolve({ event: 'error', error: state.error }));
    void watcher.start();
  });
  out({ node: process.version, globalWebSocket: typeof globalThis.WebSocket, urls, ...end });
} else if (mode === 'v2-other-id') {
  const watcher = new Firecrawl({ apiKey, apiUrl }).watcher(target, { kind: 'crawl', pollInterval: 60 });
  const end = await new Promise((resolve) => {
    watcher.on('done', (state) => resolve({ event: 'done', status: state.status }));
    watcher.on('error', (state) => resolve({ event: 'error', error: state.error }));
    void watcher.start();
  });
  out(end);
} else {
  const app = new FirecrawlAppV1({ apiKey, apiUrl });
  const watch = await (mode === 'v1-batch'
    ? app.batchScrapeUrlsAndWatch(target.split(','), { formats: ['markdown'] })
    : app.crawlUrlAndWatch(target, { limit: 10 }));
  const urls = [];
  watch.addEventListener('document', (event) => urls.push(event.detail.metadata?.sourceURL));
  const end = await new Promise((resolve) => {
    watch.addEventListener('done', (event) => resolve({ event: 'done', status: event.detail.status, data: event.detail.data.length }));
    watch.addEventListener('error', (event) => resolve({ event: 'error', error: event.detail.error }));
  });
  out({ urls, ...end });
}
clearTimeout(giveUp);
process.exit(0);
