/**
 * Quarry server variant: `quarry serve` on the embedded default (SQLite in a fresh data folder),
 * one `POST /v1/crawl`, its progress polled every 250 ms for one document (`limit=1`), then
 * every page of results read through `next`, as an SDK does. Pages are stored and credits charged as for any user. CPU and peak RSS are the server
 * process's, counted from the moment it answers /health.
 *
 *   node run-server.mjs <siteUrl> <outFile> [concurrency=16]
 *
 * CRAWL_EXCLUDE (comma-separated regexes) becomes excludePaths. SERVER_NODE_ARGS (space-separated) go
 * to the `quarry serve` process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (NODE_OPTIONS refuses
 * --cpu-prof); the profile is written when the server exits on the SIGTERM at the end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { meterProcess } from './process-meter.mjs';

const [siteUrl, outFile, concurrency = '16'] = process.argv.slice(2);
if (!siteUrl || !outFile) throw new Error('usage: run-server.mjs <siteUrl> <outFile> [concurrency]');
const cli = join(import.meta.dirname, '../../packages/http/bin/quarry.js');

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-server-'));
const nodeArgs = process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', '--port', String(port)], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    QUARRY_DATA_DIR: dataDir,
    QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    QUARRY_WORKER_CONCURRENCY: concurrency,
    HOST: '127.0.0.1',
    QUARRY_LOG_FORMAT: 'json',
  },
});
const base = `http://127.0.0.1:${port}`;
const meter = meterProcess(child.pid);
try {
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`quarry serve exited with ${child.exitCode}`);
    const healthy = await fetch(`${base}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (attempt > 300) throw new Error('quarry serve did not answer /health in 30 s');
    await sleep(100);
  }
  meter.mark();
  const started = performance.now();
  const body = {
    url: siteUrl,
    limit: 100_000,
    crawlEntireDomain: true,
    ...(process.env.CRAWL_EXCLUDE ? { excludePaths: process.env.CRAWL_EXCLUDE.split(',') } : {}),
    scrapeOptions: { formats: ['markdown'] },
  };
  const submitted = await fetch(`${base}/v1/crawl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) =>
    r.json(),
  );
  if (!submitted.success) throw new Error(`POST /v1/crawl: ${JSON.stringify(submitted)}`);
  // The progress poll asks for one document (`limit=1`), so it can run every 250 ms at no real cost
  // to the server: with the SDKs' 2 s interval, the end of a 10-15 s crawl was seen up to 2 s late,
  // a quantization of ~10 % on the server/CLI ratio. Then every page of results is read from the
  // start through `next`, as an SDK does once the crawl has ended.
  let status;
  for (;;) {
    status = await fetch(`${base}/v1/crawl/${submitted.id}?limit=1`).then((r) => r.json());
    if (['completed', 'failed', 'cancelled'].includes(status.status)) break;
    await sleep(250);
  }
  if (status.status !== 'completed') throw new Error(`the crawl ended ${status.status}: ${status.error ?? ''}`);
  let pages = 0;
  let markdownChars = 0;
  const urls = [];
  for (let page = await fetch(`${base}/v1/crawl/${submitted.id}`).then((r) => r.json()); ; ) {
    for (const document of page.data ?? []) {
      pages++;
      markdownChars += document.markdown?.length ?? 0;
      urls.push(document.metadata.url ?? document.metadata.sourceURL);
    }
    if (!page.next) break;
    page = await fetch(page.next.replace(/^https?:\/\/[^/]+/, base)).then((r) => r.json());
  }
  const errors = await fetch(`${base}/v1/crawl/${submitted.id}/errors`)
    .then((r) => r.json())
    .then(
      (e) => e.errors?.length ?? 0,
      () => 0,
    );
  const wallMs = performance.now() - started;
  const { cpuMs, maxRssMb } = meter.stop();
  writeFileSync(outFile, JSON.stringify({ variant: 'server', pages, errors, wallMs, cpuMs, maxRssMb, markdownChars, urls, credits: status.creditsUsed }));
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
  rmSync(dataDir, { recursive: true, force: true });
}
