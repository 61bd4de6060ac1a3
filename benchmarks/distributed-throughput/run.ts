/**
 * Distributed throughput: one crawl of a generated local site through the real `quarry` processes,
 * embedded (`quarry serve`, SQLite) against the distributed mode (`serve --role api` + 1, 2 and 4
 * `quarry worker` processes on PostgreSQL and Redis), each variant with fresh processes and a
 * fresh schema, order rotated per round. Also counts Redis commands per page (every round) and
 * PostgreSQL statements per page (one extra round with log_statement = all). See README.md.
 *
 *   npx tsx benchmarks/distributed-throughput/run.ts [--pages 1000] [--rounds 5] [--concurrency 16]
 *     [--variants embedded,workers-1,workers-2,workers-4] [--no-build] [--json <file>]
 *
 * PostgreSQL and Redis are private servers started by this script (backing-servers.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, startPostgres, startRedis, type PrivatePostgres, type PrivateRedis } from './backing-servers.js';

const here = import.meta.dirname;
const root = resolve(here, '../..');
const bin = join(root, 'packages/http/bin/quarry.js');

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}
const pages = Number(argument('--pages', '1000'));
const rounds = Number(argument('--rounds', '5'));
const concurrency = Number(argument('--concurrency', '16'));
const variants = argument('--variants', 'embedded,workers-1,workers-2,workers-4').split(',');
const jsonFile = process.argv.includes('--json') ? resolve(argument('--json', 'distributed-throughput.json')) : undefined;
const workersOf = (variant: string) => (variant === 'embedded' ? 0 : Number(variant.replace('workers-', '')));

interface Result {
  variant: string;
  round: number;
  pages: number;
  wallMs: number;
  /** CPU of every quarry process (API and workers), ms. */
  quarryCpuMs: number;
  redisCpuMs: number;
  redisCommands: number;
  redisScriptCalls: number;
  postgresStatements?: number;
}

/** N pages, each linking to eight others, with a unique token: the crawl must return each once. */
function startSite(): Promise<{ server: Server; url: string }> {
  const prose = 'Quarry turns web pages into LLM-ready data. '.repeat(40);
  const server = createServer((request, response) => {
    const match = /^\/p\/(\d+)$/.exec(request.url ?? '');
    const index = match ? Number(match[1]) : -1;
    if (index < 0 || index >= pages) return response.writeHead(404).end();
    // Three neighbours and five far pages: the frontier widens at once, so throughput, not the
    // latency of one chain of pages, is measured.
    const targets = [1, 2, 3].map((step) => (index + step) % pages).concat([1, 2, 3, 4, 5].map((step) => (index * 31 + step * 97) % pages));
    const links = targets.map((target) => `<li><a href="/p/${target}">Page ${target}</a></li>`).join('');
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<html><head><title>Page ${index}</title></head><body><nav><ul>${links}</ul></nav><main><h1>Page ${index}</h1><p>tok-${index}-end</p><p>${prose}</p></main></body></html>`,
    );
  });
  return new Promise((resolve_) =>
    server.listen(0, '127.0.0.1', () => resolve_({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })),
  );
}

function spawnQuarry(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      LOG_LEVEL: 'warn',
      QUARRY_WORKER_CONCURRENCY: String(concurrency),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', () => undefined);
  return child;
}

/** user + system CPU of a process so far, ms (Linux). */
function cpuOf(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 600_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve_) => setTimeout(resolve_, 50));
  }
}

async function runVariant(
  variant: string,
  round: number,
  site: string,
  redis: PrivateRedis,
  postgres: PrivatePostgres,
  countStatements: boolean,
): Promise<Result> {
  const id = `${process.pid}_${round}_${variant.replace('-', '_')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
  const port = await freePort();
  const distributed = variant !== 'embedded';
  const env: Record<string, string> = distributed
    ? { DATABASE_URL: postgres.url, REDIS_URL: redis.url, QUARRY_PG_SCHEMA: `bench_${id}`, QUARRY_REDIS_PREFIX: `bench-${id}`, QUARRY_DATA_DIR: dataDir }
    : { QUARRY_DATA_DIR: dataDir };
  const children = [spawnQuarry(['serve', ...(distributed ? ['--role', 'api'] : [])], { ...env, PORT: String(port) })];
  const api = `http://127.0.0.1:${port}`;
  await until(async () => ((await fetch(`${api}/health`)).ok ? true : undefined), 'API start', 30_000);
  for (let worker = 0; worker < workersOf(variant); worker++) children.push(spawnQuarry(['worker'], env));
  // Workers are ready once their schema is migrated and they have had a moment to connect.
  if (distributed) await new Promise((resolve_) => setTimeout(resolve_, 1_500));

  if (countStatements) postgres.logStatements(true);
  const statementsBefore = postgres.statements();
  const commandsBefore = redis.commands();
  const scriptsBefore = redis.scriptCalls();
  const redisCpuBefore = redis.cpuMs();
  const cpuBefore = children.map((child) => cpuOf(child.pid));
  const started = performance.now();
  const crawl = (await (
    await fetch(`${api}/v2/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site}/p/0`, crawlEntireDomain: true, sitemap: 'skip', limit: pages, scrapeOptions: { formats: ['markdown'] } }),
    })
  ).json()) as { id: string };
  await until(async () => {
    const status = (await (await fetch(`${api}/v2/crawl/${crawl.id}?limit=1`)).json()) as { status: string };
    return status.status === 'completed' ? true : undefined;
  }, `crawl (${variant})`);
  const wallMs = performance.now() - started;
  const quarryCpuMs = children.reduce((sum, child, index) => sum + cpuOf(child.pid) - (cpuBefore[index] ?? 0), 0);
  const redisCommands = redis.commands() - commandsBefore;
  const redisScriptCalls = redis.scriptCalls() - scriptsBefore;
  const redisCpuMs = redis.cpuMs() - redisCpuBefore;
  const postgresStatements = countStatements ? postgres.statements() - statementsBefore : undefined;
  if (countStatements) postgres.logStatements(false);

  // Correctness: every page exactly once.
  const tokens: string[] = [];
  for (let skip = 0; ; skip += 500) {
    const body = (await (await fetch(`${api}/v2/crawl/${crawl.id}?skip=${skip}&limit=500`)).json()) as { data: Array<{ markdown?: string }> };
    tokens.push(...body.data.map((document) => /tok-(\d+)-end/.exec(document.markdown ?? '')?.[1] ?? '?'));
    if (body.data.length < 500) break;
  }
  if (tokens.length !== pages || new Set(tokens).size !== pages)
    throw new Error(`${variant}: ${tokens.length} documents, ${new Set(tokens).size} distinct; expected ${pages}`);

  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  return {
    variant,
    round,
    pages,
    wallMs,
    quarryCpuMs,
    redisCpuMs,
    redisCommands,
    redisScriptCalls,
    ...(postgresStatements !== undefined ? { postgresStatements } : {}),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

if (!process.argv.includes('--no-build')) {
  for (const pkg of ['core', 'adapters', 'storage', 'http']) {
    process.stderr.write(`building packages/${pkg} ...\n`);
    execFileSync(join(root, 'node_modules/.bin/tsup'), [], { cwd: join(root, 'packages', pkg), stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

const site = await startSite();
const redis = await startRedis();
const postgres = await startPostgres();
const results: Result[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    const order = variants.map((_, index) => variants[(index + round) % variants.length]!);
    for (const variant of order) {
      const result = await runVariant(variant, round, site.url, redis, postgres, false);
      results.push(result);
      process.stderr.write(
        `round ${round} ${variant}: ${((result.pages / result.wallMs) * 1000).toFixed(1)} pages/s, ${(result.redisCommands / result.pages).toFixed(1)} Redis commands/page\n`,
      );
    }
  }
  const counted = variants.filter((variant) => variant !== 'embedded');
  for (const variant of counted) {
    const result = await runVariant(variant, rounds, site.url, redis, postgres, true);
    results.push(result);
    process.stderr.write(`count ${variant}: ${((result.postgresStatements ?? 0) / result.pages).toFixed(1)} PostgreSQL statements/page\n`);
  }
} finally {
  await postgres.stop();
  await redis.stop();
  site.server.close();
}

const commit = (() => {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return `${hash}${dirty ? '+dirty' : ''}`;
  } catch {
    return 'unknown';
  }
})();
const timed = results.filter((result) => result.round < rounds);
const embeddedRate = median(timed.filter((result) => result.variant === 'embedded').map((result) => (result.pages / result.wallMs) * 1000));
console.log(`\nDistributed throughput: ${pages} pages, ${rounds} rounds, concurrency ${concurrency} per process, commit ${commit}`);
console.log(
  `Machine: ${cpus()[0]?.model ?? 'cpu'} x${availableParallelism()}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg()[0]?.toFixed(2)}, node ${process.version}\n`,
);
console.log(
  '| variant | pages/s (median) | vs embedded | Quarry CPU ms/page | Redis commands/page (in scripts too) | Redis script calls/page | Redis CPU ms/page | PostgreSQL statements/page | rounds (pages/s) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const variant of variants) {
  const rows = timed.filter((result) => result.variant === variant);
  const rates = rows.map((result) => (result.pages / result.wallMs) * 1000);
  const rate = median(rates);
  const counted = results.find((result) => result.variant === variant && result.postgresStatements !== undefined);
  const perPage = (value: number) => value.toFixed(1);
  console.log(
    `| ${variant} | ${rate.toFixed(1)} | ${embeddedRate ? `${(rate / embeddedRate).toFixed(2)}x` : '-'} | ${perPage(median(rows.map((row) => row.quarryCpuMs / row.pages)))} | ` +
      `${variant === 'embedded' ? '-' : perPage(median(rows.map((row) => row.redisCommands / row.pages)))} | ` +
      `${variant === 'embedded' ? '-' : perPage(median(rows.map((row) => row.redisScriptCalls / row.pages)))} | ${variant === 'embedded' ? '-' : median(rows.map((row) => row.redisCpuMs / row.pages)).toFixed(2)} | ` +
      `${counted ? perPage((counted.postgresStatements ?? 0) / counted.pages) : '-'} | ${rates.map((value) => value.toFixed(1)).join(', ')} |`,
  );
}
if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ pages, rounds, concurrency, commit, results }, null, 2));
