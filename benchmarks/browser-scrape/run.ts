/**
 * Browser scrapes per second and memory at the pool's default size: a local site of
 * script-rendered pages, scraped through the engine with `waitFor`-free browser requests
 * (formats: markdown, forcing the browser by a script-rendered page), `concurrency` at a time.
 *
 *   npx tsx benchmarks/browser-scrape/run.ts [pages=200] [rounds=3]
 *
 * Prints, per round: pages/s, peak Chromium RSS (sum over its processes, MB), peak Node RSS (MB),
 * browsers launched; then the medians. Correctness: every page must come back with its token.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserPoolDefaults, findChromium, GotFetcher, PlaywrightFetcher } from '@quarry/adapters';
import { createEngine } from '@quarry/core';

const pages = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 3);
const concurrency = browserPoolDefaults.maxOpenPages;

/** RSS of the Chromium processes this process started (descendants only: other programs' browsers are not counted), MB. */
function chromiumRssMb(): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (/^Name:\s+chrom/m.test(status)) rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0;
  for (const [pid, kb] of rss) {
    for (let current = parents.get(pid); current !== undefined && current > 1; current = parents.get(current)) {
      if (current === process.pid) {
        total += kb;
        break;
      }
    }
  }
  return total / 1024;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const server = createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html><head><title>${request.url}</title></head><body><div id="root"></div><script>` +
      `document.getElementById('root').innerHTML = '<main><h1>Page ${request.url}</h1>' + '<p>Rendered paragraph with some words in it.</p>'.repeat(30) + '<p>token-${request.url}</p></main>';</script></body></html>`,
  );
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const executablePath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
if (!executablePath) throw new Error('No Chromium found: apt-get install chromium or set QUARRY_CHROMIUM_PATH');

const results: Array<{ pagesPerSecond: number; chromiumMb: number; nodeMb: number; launched: number }> = [];
for (let round = 0; round < rounds; round++) {
  const browser = new PlaywrightFetcher({ executablePath, allowPrivateHosts: ['127.0.0.1'] });
  const engine = createEngine({ fetcher: new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }), browser });
  let next = 0;
  let peakChromium = 0;
  let peakNode = 0;
  const sampler = setInterval(() => {
    peakChromium = Math.max(peakChromium, chromiumRssMb());
    peakNode = Math.max(peakNode, process.memoryUsage().rss / 1024 / 1024);
  }, 250);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < pages) {
        const path = `/r${round}/p${next++}`;
        const document = await engine.scrape(`${base}${path}`, { maxAge: 0 });
        if (document.metadata.engine !== 'browser' || !document.markdown?.includes(`token-${path}`)) throw new Error(`wrong result for ${path}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const launched = browser.stats()?.launched ?? 0;
  await engine.close();
  results.push({ pagesPerSecond: pages / seconds, chromiumMb: peakChromium, nodeMb: peakNode, launched });
  console.log(
    `round ${round + 1}: ${(pages / seconds).toFixed(2)} pages/s, peak Chromium RSS ${peakChromium.toFixed(0)} MB, peak Node RSS ${peakNode.toFixed(0)} MB, browsers launched ${launched}`,
  );
}
server.close();
console.log(
  `median over ${rounds} rounds of ${pages} pages at ${concurrency} open pages: ${median(results.map((r) => r.pagesPerSecond)).toFixed(2)} pages/s, ` +
    `peak Chromium RSS ${median(results.map((r) => r.chromiumMb)).toFixed(0)} MB, peak Node RSS ${median(results.map((r) => r.nodeMb)).toFixed(0)} MB`,
);
