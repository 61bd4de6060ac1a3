/**
 * Crawl throughput: Quarry's library crawl against Crawlee's CheerioCrawler on the same generated
 * site, each variant in a fresh process, order alternated per round. Both fetch every page, parse
 * it, follow its links and turn it into markdown. See README.md.
 *
 *   npx tsx benchmarks/crawl-throughput/run.ts [--pages 5000] [--rounds 3] [--concurrency 16]
 *     [--threads 0] [--variants quarry,crawlee] [--no-build] [--cpu-prof <dir>] [--json <file>]
 *     [--skip-frontier]
 *
 * The site is served by a separate process (site-server.ts); the runners are plain JavaScript
 * (run-quarry.mjs, run-crawlee.mjs) over the built packages, which this script builds first.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pagePath } from './site.js';

interface VariantResult {
  variant: string;
  pages: number;
  errors: number;
  wallMs: number;
  cpuMs: number;
  threads?: { mainMs: number; newThreadsMs: number; otherThreadsMs: number };
  maxRssMb: number;
  markdownChars: number;
  urls: string[];
}

interface Round extends VariantResult {
  round: number;
  served: number;
  load: number;
}

const here = import.meta.dirname;
const root = resolve(here, '../..');

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}
const pages = Number(argument('--pages', '5000'));
const rounds = Number(argument('--rounds', '3'));
const concurrency = Number(argument('--concurrency', '16'));
const threads = Number(argument('--threads', '0'));
const variants = argument('--variants', 'quarry,crawlee').split(',');
const cpuProfileDir = process.argv.includes('--cpu-prof') ? resolve(argument('--cpu-prof', 'cpu-profiles')) : undefined;
const jsonFile = process.argv.includes('--json') ? resolve(argument('--json', 'crawl-throughput.json')) : undefined;

const runners: Record<string, string> = { quarry: join(here, 'run-quarry.mjs'), crawlee: join(here, 'run-crawlee.mjs') };
for (const variant of variants) if (!runners[variant]) throw new Error(`unknown variant ${variant}; known: ${Object.keys(runners).join(', ')}`);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The same page counts once: fragment dropped. */
function normalized(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

function build() {
  const tsup = join(root, 'node_modules/.bin/tsup');
  for (const pkg of ['core', 'adapters']) {
    process.stderr.write(`building packages/${pkg} ...\n`);
    execFileSync(tsup, [], { cwd: join(root, 'packages', pkg), stdio: ['ignore', 'ignore', 'inherit'] });
  }
}

async function startSite(): Promise<{ url: string; bytes: number; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'site-server.ts'), '--pages', String(pages)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolveLine, reject) => {
    lines.once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`site server exited with ${code}`)));
  });
  const ready = JSON.parse(first) as { url: string; bytes: number };
  return { ...ready, stop: () => child.kill('SIGTERM') };
}

async function runVariant(variant: string, siteUrl: string, outFile: string, round: number): Promise<VariantResult> {
  const profile = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(cpuProfileDir, `${variant}-${round}`)}`] : [];
  const child = spawn(process.execPath, [...profile, runners[variant]!, siteUrl, outFile, String(concurrency), String(threads)], {
    cwd: here,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  if (code !== 0) throw new Error(`${variant} exited with code ${code}`);
  return JSON.parse(readFileSync(outFile, 'utf8')) as VariantResult;
}

async function served(siteUrl: string): Promise<number> {
  const response = await fetch(new URL('/__stats?reset=1', siteUrl));
  return ((await response.json()) as { served: number }).served;
}

function frontierMemory(): Record<string, number> {
  const output = execFileSync(process.execPath, ['--expose-gc', join(here, 'frontier-memory.mjs'), '100000'], { cwd: here, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop()!) as Record<string, number>;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);
const commit = (() => {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${hash} (with uncommitted changes)` : hash;
  } catch {
    return 'unknown';
  }
})();
const command = `npx tsx ${relative(root, join(here, 'run.ts'))} ${process.argv.slice(2).join(' ')}`.trim();

if (!process.argv.includes('--no-build')) build();
const site = await startSite();
const work = mkdtempSync(join(tmpdir(), 'crawl-throughput-'));
const results: Round[] = [];
try {
  await served(site.url);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      const load = loadavg()[0]!;
      const result = await runVariant(variant, site.url, join(work, `${variant}-${round}.json`), round);
      const requests = await served(site.url);
      results.push({ ...result, round, served: requests, load });
      process.stderr.write(
        `round ${round + 1} ${variant}: ${result.pages} pages in ${fixed(result.wallMs / 1000)} s, ` +
          `${fixed(result.pages / (result.wallMs / 1000))} pages/s, ${fixed(result.cpuMs / result.pages, 2)} ms CPU/page, ` +
          `${fixed(result.maxRssMb, 0)} MB peak RSS (load ${fixed(load, 2)})\n`,
      );
    }
  }
} finally {
  site.stop();
  rmSync(work, { recursive: true, force: true });
}
const frontier = process.argv.includes('--skip-frontier') ? undefined : frontierMemory();

// Correctness: every run crawled the whole site, and all variants the same set of URLs.
const expected = new Set(Array.from({ length: pages }, (_, index) => new URL(pagePath(index), site.url).href));
const sets = results.map((result) => new Set(result.urls.map(normalized)));
const mismatches = results.flatMap((result, index) => {
  const set = sets[index]!;
  const missing = [...expected].filter((url) => !set.has(url));
  const extra = [...set].filter((url) => !expected.has(url));
  const duplicates = result.urls.length - set.size;
  return missing.length + extra.length + duplicates > 0
    ? [
        `${result.variant} round ${result.round + 1}: ${missing.length} missing, ${extra.length} extra, ${duplicates} duplicates (e.g. ${[...missing, ...extra].slice(0, 2).join(' ')})`,
      ]
    : [];
});

const summary = variants.map((variant) => {
  const runs = results.filter((result) => result.variant === variant);
  return {
    variant,
    pagesPerSecond: median(runs.map((run) => run.pages / (run.wallMs / 1000))),
    cpuMsPerPage: median(runs.map((run) => run.cpuMs / run.pages)),
    maxRssMb: median(runs.map((run) => run.maxRssMb)),
    peakRssMb: Math.max(...runs.map((run) => run.maxRssMb)),
    pages: runs[0]?.pages ?? 0,
  };
});

const cpuInfo = cpus();
console.log(`# Crawl throughput: ${variants.join(' vs ')}`);
console.log(`commit ${commit}; command: ${command}`);
console.log(
  `machine: ${availableParallelism()} cores (${cpuInfo[0]?.model.trim()}), ${fixed(totalmem() / 2 ** 30, 0)} GiB, node ${process.version}; load average at the end ${loadavg()
    .map((value) => fixed(value, 2))
    .join(' ')}`,
);
console.log(
  `site: ${pages} pages, ${fixed(site.bytes / pages / 1024)} KB per page on average; concurrency ${concurrency}; Quarry conversion ${threads === 1 ? 'on the main thread' : `on ${threads === 0 ? Math.max(1, availableParallelism() - 1) : threads} worker thread(s)`}`,
);
console.log('');
console.log(
  '| round | variant | pages | errors | requests served | seconds | pages/s | CPU ms/page | main / new threads / other CPU s | peak RSS MB | load avg |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const result of results) {
  const split = result.threads
    ? `${fixed(result.threads.mainMs / 1000)} / ${fixed(result.threads.newThreadsMs / 1000)} / ${fixed(result.threads.otherThreadsMs / 1000)}`
    : '-';
  console.log(
    `| ${result.round + 1} | ${result.variant} | ${result.pages} | ${result.errors} | ${result.served} | ${fixed(result.wallMs / 1000)} | ${fixed(result.pages / (result.wallMs / 1000))} | ${fixed(result.cpuMs / result.pages, 2)} | ${split} | ${fixed(result.maxRssMb, 0)} | ${fixed(result.load, 2)} |`,
  );
}
console.log('');
console.log('| variant | pages | pages/s (median) | CPU ms/page (median) | peak RSS MB (median / max) |');
console.log('|---|---|---|---|---|');
for (const row of summary) {
  console.log(
    `| ${row.variant} | ${row.pages} | ${fixed(row.pagesPerSecond)} | ${fixed(row.cpuMsPerPage, 2)} | ${fixed(row.maxRssMb, 0)} / ${fixed(row.peakRssMb, 0)} |`,
  );
}
const quarry = summary.find((row) => row.variant === 'quarry');
const crawlee = summary.find((row) => row.variant === 'crawlee');
if (quarry && crawlee) {
  const speed = quarry.pagesPerSecond / crawlee.pagesPerSecond;
  const cpu = quarry.cpuMsPerPage / crawlee.cpuMsPerPage;
  console.log('');
  console.log(
    `Quarry/Crawlee: pages/s x${fixed(speed, 2)} (target >= 2), CPU per page x${fixed(cpu, 2)} (target <= 0.5), peak RSS x${fixed(quarry.peakRssMb / crawlee.peakRssMb, 2)}`,
  );
  console.log(`Quarry peak RSS ${fixed(quarry.peakRssMb, 0)} MB (target < 300 MB for the ${pages}-page crawl)`);
}
if (frontier)
  console.log(
    `Frontier: ${frontier.urls} queued URLs hold ${frontier.heapDeltaMb} MB of heap, ${frontier.bytesPerUrl} bytes per URL (target < 500 MB); RSS ${frontier.rssMb} MB`,
  );
console.log('');
console.log(
  mismatches.length === 0
    ? `Same pages: every run crawled exactly the ${expected.size} pages of the site (normalized URL sets equal across variants and rounds).`
    : `PAGE SETS DIFFER:\n${mismatches.join('\n')}`,
);
if (jsonFile) {
  writeFileSync(
    jsonFile,
    JSON.stringify({ commit, command, pages, concurrency, threads, summary, frontier, rounds: results.map(({ urls: _urls, ...rest }) => rest) }, null, 2),
  );
}
if (mismatches.length > 0) process.exitCode = 1;
