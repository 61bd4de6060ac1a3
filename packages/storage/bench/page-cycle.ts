// Rough cost of the storage work a crawl does per page, on the embedded SQLite backend:
// addItems (the page's links, most already seen) + enqueue (the new ones) + lease + finishItem
// (document stored and credits charged) + ack. Not a test; prints pages per second.
//
//   npx tsx packages/storage/bench/page-cycle.ts [pages=10000] [documentBytes=5000] [linksPerPage=20]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCrawlRequest, type ScrapeDocument } from '@quarry/core';
import { createSqliteStorage } from '../src/index.js';

const pages = Number(process.argv[2] ?? 10_000);
const documentBytes = Number(process.argv[3] ?? 5_000);
const linksPerPage = Number(process.argv[4] ?? 20);

const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
const storage = createSqliteStorage({ dataDir });
const { jobs, queue, ledger } = storage;
await ledger.ensureTeam('team', 'Team');
await ledger.setCredits('team', 1_000_000_000);
await jobs.createJob({
  id: 'job',
  kind: 'crawl',
  teamId: 'team',
  status: 'scraping',
  url: 'https://example.com/',
  request: { version: 'v2', options: parseCrawlRequest('v2', { url: 'https://example.com/', limit: pages }).options },
  createdAt: Date.now(),
  expiresAt: Date.now() + 86_400_000,
  kickoffDone: true,
});

const body = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(documentBytes / 27)).slice(0, documentBytes);
const documentFor = (url: string): ScrapeDocument => ({
  markdown: body,
  metadata: { sourceURL: url, url, statusCode: 200, scrapeId: url, creditsUsed: 1, proxyUsed: 'basic', engine: 'http', title: url },
});
const entryFor = (index: number) => ({ url: `https://example.com/p/${index}`, key: `example.com/p/${index}`, discoveryDepth: 1 });

const added = await jobs.addItems('job', [entryFor(0)], pages);
await queue.enqueue(added.map((entry) => ({ id: `job:${entry.key}`, jobId: 'job', ...entry })));

const started = process.hrtime.bigint();
const cpuStarted = process.cpuUsage();
let done = 0;
let next = 1;
while (done < pages) {
  const leased = await queue.lease(16, 60_000);
  if (leased.length === 0) break;
  for (const message of leased) {
    // Links: a few new pages, the rest already seen (navigation repeated on every page).
    const links = Array.from({ length: linksPerPage }, (_, index) => entryFor(index < 3 ? next + index : index));
    next += 3;
    const fresh = await jobs.addItems('job', links, pages);
    if (fresh.length > 0) await queue.enqueue(fresh.map((entry) => ({ id: `job:${entry.key}`, jobId: 'job', ...entry })));
    await jobs.finishItem('job', 'team', { key: message.key, document: documentFor(message.url), credits: 1, finishedAt: Date.now() });
    await queue.ack(message);
    done++;
  }
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const cpu = process.cpuUsage(cpuStarted);
const progress = await jobs.progress('job');
const listStarted = process.hrtime.bigint();
const firstPage = await jobs.listDocuments('job', Math.floor(pages / 2), 100);
const listMs = Number(process.hrtime.bigint() - listStarted) / 1e6;
console.log(
  JSON.stringify({
    pages: done,
    documentBytes,
    linksPerPage,
    seconds: Number(seconds.toFixed(2)),
    pagesPerSecond: Math.round(done / seconds),
    cpuMsPerPage: Number(((cpu.user + cpu.system) / 1000 / done).toFixed(3)),
    progress,
    credits: await ledger.getCredits('team'),
    listDocuments100AtMiddleMs: Number(listMs.toFixed(1)),
    listed: firstPage.length,
  }),
);
storage.close();
rmSync(dataDir, { recursive: true, force: true });
