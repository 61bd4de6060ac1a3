/**
 * In-process CPU per page of the server's SQLite writes and reads for one crawl page, without the
 * fetch and the transform: the calls `quarry serve`'s main thread makes per page, in its order
 * (lease, getJob, getItem, document cache put, page index add, addItems + enqueue of the page's
 * links, finishItem, ack, settle's getJob + progress), over the HTML pages of an installed
 * documentation package (text of the page as its markdown, its links as the frontier), on a fresh
 * `createSqliteStorage` in a temporary folder. The crawl's wall time on a shared 2-core machine
 * moves ±50 % with the load; this isolates the store path, so a change of a few % shows.
 *
 *   node benchmarks/crawl-real-site/server-store-path.mjs [--pages 1948] [--repeat 3] [--dir DIR]
 *     [--modes separate,fourth,current] [--compare packages/storage/.before-dist[,other-dist]]
 *
 * Modes, alternated in the same process: `separate` (one lease per page, the ack its own statement
 * after finishItem, the page index and the document cache written page by page: the server before
 * issue 14's fourth pass), `fourth` (8 messages leased ahead as the embedded runner does, the
 * ack inside finishItem's transaction when the store `acksMessages`, the page index's and the
 * document cache's batches: the end of the fourth pass) and `current` (`fourth`, and the job read
 * whole once, then its head per dispatch and settle, as the runner does from the fifth pass).
 *
 * `--compare` runs each mode on the current build and on copies of earlier builds of
 * `packages/storage/dist` (made with `cp -a packages/storage/dist packages/storage/.before-dist`
 * before rebuilding), alternated in the same process, and prints each build's median CPU per page
 * and the time split by call (lease, put, index, addItems, enqueue, finish; the rest is the reads).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { htmlFiles } from './site-pages.mjs';
import { parseCrawlRequest } from '@quarry/core';
import * as currentStorage from '@quarry/storage';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '1948' },
    dir: { type: 'string', default: '/usr/share/doc/cmake-data/html' },
    repeat: { type: 'string', default: '3' },
    modes: { type: 'string', default: 'separate,fourth,current' },
    compare: { type: 'string' },
  },
});

const base = 'http://127.0.0.1:8000/';
const pages = htmlFiles(values.dir)
  .slice(0, Number(values.pages))
  .map((path) => {
    const html = readFileSync(path, 'utf8');
    const url = new URL(relative(values.dir, path), base).href;
    const links = [...html.matchAll(/href="([^"#]+\.html)/g)].map((match) => new URL(match[1], url).href).filter((link) => link.startsWith(base));
    return { url, title: /<title>([^<]*)/.exec(html)?.[1] ?? '', text: html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' '), links };
  });
const byUrl = new Map(pages.map((page) => [page.url, page]));

const unbatched = { batchSize: 1, flushMs: 0 };

const builds = [{ name: 'current', storage: currentStorage }];
for (const dist of values.compare?.split(',') ?? []) builds.push({ name: dist, storage: await import(pathToFileURL(join(dist, 'index.js')).href) });

/** CPU (user + system, µs) of each kind of call, summed over a crawl. */
const split = new Map();
async function timed(label, call) {
  const before = process.cpuUsage();
  const result = await call();
  const used = process.cpuUsage(before);
  split.set(label, (split.get(label) ?? 0) + used.user + used.system);
  return result;
}

async function crawl(mode, { createSqliteStorage }) {
  split.clear();
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-store-path-'));
  const storage = createSqliteStorage({ dataDir, ...(mode === 'separate' ? { pageIndex: unbatched, documents: unbatched } : {}) });
  const jobId = 'job-1';
  await storage.jobs.createJob({
    id: jobId,
    kind: 'crawl',
    teamId: 'team-a',
    status: 'scraping',
    url: pages[0].url,
    request: { version: 'v1', options: parseCrawlRequest('v1', { url: pages[0].url, limit: 100_000 }).options },
    createdAt: 1,
    expiresAt: Date.now() + 86_400_000,
    kickoffDone: true,
  });
  const start = { url: pages[0].url, key: pages[0].url, discoveryDepth: 0 };
  await storage.jobs.addItems(jobId, [start], 100_000);
  await storage.queue.enqueue([{ id: `${jobId}:${start.key}`, jobId, ...start }]);
  const acksInFinish = mode !== 'separate' && storage.jobs.acksMessages === true;
  const leaseAhead = mode !== 'separate' ? 8 : 0;
  // The runner's reads of the job: getJob each time (`separate`, `fourth`), or whole once and then its head (`current`, fifth pass).
  let whole;
  const readJob = async () => {
    if (mode !== 'current') return storage.jobs.getJob(jobId);
    whole ??= await storage.jobs.getJob(jobId);
    const { error: _error, ...rest } = whole;
    return { ...rest, ...(await storage.jobs.jobHead(jobId)) };
  };
  const ahead = [];
  let done = 0;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (;;) {
    if (ahead.length === 0) ahead.push(...(await timed('lease', () => storage.queue.lease(1 + leaseAhead, 120_000))));
    const message = ahead.shift();
    if (!message) break;
    const job = await readJob();
    const item = await storage.jobs.getItem(job.id, message.key);
    const page = byUrl.get(message.url);
    if (item?.state !== 'queued' || !page) {
      await storage.queue.ack(message);
      continue;
    }
    const metadata = {
      sourceURL: page.url,
      url: page.url,
      title: page.title,
      statusCode: 200,
      scrapeId: `s-${done}`,
      creditsUsed: 1,
      proxyUsed: 'basic',
      engine: 'http',
    };
    const document = { markdown: page.text, metadata };
    await timed('put', () =>
      storage.documents.put({ key: `team-a:${page.url}`, url: page.url, teamId: 'team-a', document, storedAt: done, links: page.links }),
    );
    await timed('index', () => storage.pageIndex.add({ scope: 'team-a', url: page.url, title: page.title, description: '', text: page.text, storedAt: done }));
    const added = await timed('addItems', () =>
      storage.jobs.addItems(
        job.id,
        page.links.map((link) => ({ url: link, key: link, discoveryDepth: message.discoveryDepth + 1 })),
        100_000,
      ),
    );
    if (added.length > 0) await timed('enqueue', () => storage.queue.enqueue(added.map((entry) => ({ id: `${jobId}:${entry.key}`, jobId, ...entry }))));
    await timed('finish', () =>
      storage.jobs.finishItem(job.id, job.teamId, { key: message.key, document, credits: 1, finishedAt: done, ...(acksInFinish ? { ack: message } : {}) }),
    );
    if (!acksInFinish) await storage.queue.ack(message);
    await readJob();
    await storage.jobs.progress(jobId);
    done++;
  }
  const used = process.cpuUsage(cpu);
  const wallMs = performance.now() - wall;
  storage.close();
  rmSync(dataDir, { recursive: true, force: true });
  const perPage = (micros) => (micros / 1000 / done).toFixed(3);
  const calls = [...split].map(([label, micros]) => `${label} ${perPage(micros)}`).join(', ');
  return { done, cpuMsPerPage: (used.user + used.system) / 1000 / done, wallMsPerPage: wallMs / done, calls };
}

const modes = values.modes.split(',');
const runs = new Map();
for (let round = 0; round < Number(values.repeat); round++) {
  const order = modes.flatMap((mode) => builds.map((build) => ({ mode, build })));
  for (const { mode, build } of round % 2 === 0 ? order : order.reverse()) {
    const result = await crawl(mode, build.storage);
    const label = builds.length > 1 ? `${mode} ${build.name}` : mode;
    runs.set(label, [...(runs.get(label) ?? []), result.cpuMsPerPage]);
    console.log(
      `round ${round + 1} ${label}: ${result.done} pages, ${result.cpuMsPerPage.toFixed(3)} ms CPU/page, ${result.wallMsPerPage.toFixed(3)} ms wall/page (${result.calls})`,
    );
  }
}
for (const [label, list] of runs) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(`${label}: median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} ms CPU/page (${list.map((value) => value.toFixed(3)).join(' ')})`);
}
