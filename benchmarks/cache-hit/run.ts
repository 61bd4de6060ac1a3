/**
 * Cache hit latency: how long Quarry's server takes to answer a scrape from its document cache
 * (maxAge), against the same scrape fetched fresh (maxAge 0) from a page on 127.0.0.1. See README.md.
 *
 *   npx tsx benchmarks/cache-hit/run.ts [--requests 500] [--rounds 5] [--json <file>]
 *
 * Server-side time is measured with Fastify's inject (the whole server pipeline: routing, auth,
 * rate limit, validation, cache lookup in SQLite, serialization; no socket). The round trip over a
 * real socket is reported next to it. The http package's sources run through tsx over the built
 * core, adapters and storage (build them first: npx turbo run build).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../packages/http/src/compose.js';
import { composeServer } from '../../packages/http/src/compose-server.js';
import { buildServer } from '../../packages/http/src/server/build-server.js';

const args = new Map<string, string>();
for (let index = 2; index < process.argv.length; index += 2) args.set(process.argv[index]!.replace(/^--/, ''), process.argv[index + 1] ?? '');
const requests = Number(args.get('requests') ?? 500);
const rounds = Number(args.get('rounds') ?? 5);

// A realistic article page (~60 KB of HTML, ~8 KB of markdown).
const paragraphs = Array.from(
  { length: 60 },
  (_, index) => `<p>Paragraph ${index}: ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8)}</p>`,
);
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Benchmark page</title><meta name="description" content="A page for the cache benchmark">
<style>${'.x{color:red}'.repeat(300)}</style></head><body><header><nav>${'<a href="/x">Link</a>'.repeat(40)}</nav></header>
<main><article><h1>Benchmark page</h1>${paragraphs.join('\n')}<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></article></main>
<footer>${'<a href="/y">Footer</a>'.repeat(30)}</footer></body></html>`;

const site = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(page);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

const dataDir = mkdtempSync(join(tmpdir(), 'quarry-cache-bench-'));
const config = loadConfig({
  QUARRY_DATA_DIR: dataDir,
  QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
  QUARRY_TRANSFORM_THREADS: '1',
  QUARRY_RATE_LIMITS: 'scrape=100000000',
  LOG_LEVEL: 'silent',
});
const parts = await composeServer(config);
const app = buildServer(parts.services);
await app.listen({ port: 0, host: '127.0.0.1' });
const serverUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const body = (path: string, maxAge: number) => JSON.stringify({ url: `${siteUrl}${path}`, formats: ['markdown'], maxAge });

async function injectMs(payload: string, expectState: string | undefined): Promise<number> {
  const started = performance.now();
  const response = await app.inject({ method: 'POST', url: '/v2/scrape', headers: { 'content-type': 'application/json' }, payload });
  const elapsed = performance.now() - started;
  const state = (response.json() as { data: { metadata: { cacheState?: string } } }).data.metadata.cacheState;
  if (response.statusCode !== 200 || state !== expectState)
    throw new Error(`unexpected answer ${response.statusCode} ${state}: ${response.body.slice(0, 200)}`);
  return elapsed;
}

async function socketMs(payload: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${serverUrl}/v2/scrape`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
  await response.arrayBuffer();
  return performance.now() - started;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const round2 = (value: number) => Math.round(value * 100) / 100;

// Warm up: store the page, let the JIT settle.
await injectMs(body('/page', 0), undefined);
for (let index = 0; index < 200; index++) await injectMs(body('/page', 3_600_000), 'hit');

const results: Array<Record<string, number>> = [];
for (let round = 1; round <= rounds; round++) {
  // Order alternates: hits first on odd rounds, fresh scrapes first on even ones.
  const measure = async (kind: 'hit' | 'fresh') => {
    const times: number[] = [];
    const count = kind === 'hit' ? requests : Math.max(20, Math.floor(requests / 10));
    for (let index = 0; index < count; index++) times.push(await injectMs(body('/page', kind === 'hit' ? 3_600_000 : 0), kind === 'hit' ? 'hit' : undefined));
    return times;
  };
  const order: Array<'hit' | 'fresh'> = round % 2 === 1 ? ['hit', 'fresh'] : ['fresh', 'hit'];
  const measured: Record<string, number[]> = {};
  for (const kind of order) measured[kind] = await measure(kind);
  const socket: number[] = [];
  for (let index = 0; index < Math.floor(requests / 5); index++) socket.push(await socketMs(body('/page', 3_600_000)));
  const row = {
    round,
    hitP50Ms: round2(quantile(measured.hit!, 0.5)),
    hitP95Ms: round2(quantile(measured.hit!, 0.95)),
    freshP50Ms: round2(quantile(measured.fresh!, 0.5)),
    hitSocketP50Ms: round2(quantile(socket, 0.5)),
  };
  results.push(row);
  console.log(JSON.stringify(row));
}

const median = (key: string) =>
  round2(
    quantile(
      results.map((row) => row[key]!),
      0.5,
    ),
  );
const summary = {
  commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
  cpu: cpus()[0]?.model,
  cores: cpus().length,
  node: process.version,
  requestsPerRound: requests,
  rounds,
  hitP50Ms: median('hitP50Ms'),
  hitP95Ms: median('hitP95Ms'),
  freshP50Ms: median('freshP50Ms'),
  hitSocketP50Ms: median('hitSocketP50Ms'),
  speedup: round2(median('freshP50Ms') / median('hitP50Ms')),
};
console.log(JSON.stringify(summary, null, 2));
if (args.get('json')) writeFileSync(args.get('json')!, JSON.stringify({ summary, rounds: results }, null, 2));

await app.close();
await parts.close();
site.close();
rmSync(dataDir, { recursive: true, force: true });
