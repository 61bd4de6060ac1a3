/**
 * Real-site crawl throughput: Quarry's library crawl against Crawlee CheerioCrawler + turndown on an
 * installed Debian documentation package served from 127.0.0.1 by a separate process. Order
 * alternates per round; each variant runs in a fresh process (the runners of
 * ../crawl-throughput, which read the built packages: run `npx turbo run build` first).
 *
 *   node benchmarks/crawl-real-site/run.mjs [--package git-doc] [--rounds 3] [--concurrency 16]
 *     [--variants cli,crawlee,server,quarry] [--root <dir>] [--server nginx|node]
 *
 * `--server`: what serves the files. `nginx` (the default when Debian's nginx is installed, see
 * nginx-server.mjs) costs the two cores least; `node` is `static-server.mjs`, the server of the
 * standings before the twelfth pass.
 *
 * `--root` serves the package's files from another folder: a package that cannot be installed
 * beside the system's own (nodejs-doc conflicts with the nodejs package) is extracted with
 * `dpkg -x nodejs-doc_*.deb <dir>` and served from `<dir>/usr/share/doc/nodejs/api`.
 *
 * Needs no internet. If the package is not installed it says how to install it and exits with 2.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { nginxPath, startNginx } from './nginx-server.mjs';

const here = import.meta.dirname;
const throughput = join(here, '../crawl-throughput');
const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
};
/**
 * Start page (relative to the served root) of each known documentation package, and the paths left
 * out of both crawls: Sphinx links every page's reStructuredText source (`_sources/*.txt`), which
 * Crawlee refuses by content type and Quarry would convert, so the page sets would differ.
 */
const sphinx = '/_sources/,/_downloads/,/_images/,/_static/';
const sites = {
  'git-doc': { root: '/usr/share/doc/git-doc', start: 'git.html' },
  'cmake-doc': { root: '/usr/share/doc/cmake-data/html', start: 'index.html', exclude: sphinx },
  'sphinx-doc': { root: '/usr/share/doc/sphinx-doc/html', start: 'index.html', exclude: sphinx },
  'nodejs-doc': { root: '/usr/share/doc/nodejs/api', start: 'index.html' },
  // Held out for issue 14's sixth pass on small sites (14k): measured once, at the end.
  'python-flask-doc': { root: '/usr/share/doc/python-flask-doc/html', start: 'index.html', exclude: sphinx },
  'python-tornado-doc': { root: '/usr/share/doc/python-tornado-doc/html', start: 'index.html', exclude: sphinx },
  // Fresh held out for issue 14's eighth pass on both cores (14f): a large DocBook site (1,169 HTML
  // files), chosen from the .deb's file list only; crawled once, at the end.
  'postgresql-doc-15': { root: '/usr/share/doc/postgresql-doc-15/html', start: 'index.html' },
  // Held out for issue 14's eighth pass on small sites (14e), chosen from file lists only.
  'python-cryptography-doc': { root: '/usr/share/doc/python-cryptography-doc/html', start: 'index.html', exclude: sphinx },
  'python-celery-doc': { root: '/usr/share/doc/python-celery-doc/html', start: 'index.html', exclude: sphinx },
  // Fresh held out for issue 14's ninth pass on small-page large sites (14i): 6,074 HTML files outside
  // `_*/` (5,763 of them API pages under generated/), chosen from `dpkg -L` only; crawled once, at the end.
  'python-statsmodels-doc': { root: '/usr/share/doc/python-statsmodels-doc/html', start: 'index.html', exclude: sphinx },
  // Fresh held out for the twelfth pass's standing (fourteenth session): 4,122 HTML files outside
  // `_*/`, chosen from `find` counts only; crawled once, at the end, on a quiet machine.
  'python-pandas-doc': { root: '/usr/share/doc/python-pandas-doc/html', start: 'index.html', exclude: sphinx },
};
const pkg = argument('--package', 'git-doc');
const rounds = Number(argument('--rounds', '3'));
const concurrency = Number(argument('--concurrency', '16'));
const variants = argument('--variants', 'cli,crawlee,server').split(',');
const serverKind = argument('--server', nginxPath() ? 'nginx' : 'node');
const known = sites[pkg];
if (!known) {
  console.error(`unknown package ${pkg}; known: ${Object.keys(sites).join(', ')}`);
  process.exit(2);
}
const site = { ...known, root: argument('--root', known.root) };
if (!existsSync(join(site.root, site.start))) {
  console.error(`${pkg} is not installed (${join(site.root, site.start)} is missing). Install it with:\n  apt-get update && apt-get install -y ${pkg}`);
  process.exit(2);
}

async function startServer() {
  if (serverKind === 'nginx') return startNginx(site.root);
  const child = spawn(process.execPath, [join(here, 'static-server.mjs'), site.root], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
  return { url: JSON.parse(line).url, stop: () => child.kill('SIGTERM') };
}
/** quarry: the library crawl in-process; cli: `quarry crawl --json`; server: `POST /v1/crawl` on `quarry serve`. */
const runners = {
  quarry: join(throughput, 'run-quarry.mjs'),
  crawlee: join(throughput, 'run-crawlee.mjs'),
  cli: join(here, 'run-cli.mjs'),
  server: join(here, 'run-server.mjs'),
};
async function runVariant(variant, startUrl, outFile) {
  const env = { ...process.env, ...(site.exclude ? { CRAWL_EXCLUDE: site.exclude } : {}) };
  const child = spawn(process.execPath, [runners[variant], startUrl, outFile, String(concurrency), '0'], {
    cwd: throughput,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${variant} exited with code ${code}`);
  return JSON.parse(readFileSync(outFile, 'utf8'));
}
/** The same page counts once: fragment and query dropped, /index.html as its directory. */
const normalized = (url) => {
  const parsed = new URL(url);
  parsed.hash = '';
  parsed.search = '';
  return parsed.href.replace(/\/index\.html$/, '/');
};
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const fixed = (value, digits = 1) => value.toFixed(digits);

const server = await startServer();
const startUrl = new URL(site.start, server.url).href;
const work = mkdtempSync(join(tmpdir(), 'crawl-real-site-'));
const results = [];
try {
  for (let round = 0; round < rounds; round++) {
    for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) {
      const load = loadavg()[0];
      const result = await runVariant(variant, startUrl, join(work, `${variant}-${round}.json`));
      results.push({ ...result, round, load });
      console.error(
        `round ${round + 1} ${variant}: ${result.pages} pages, ${fixed(result.pages / (result.wallMs / 1000))} pages/s, ${fixed(result.cpuMs / result.pages, 2)} ms CPU/page, ${fixed(result.maxRssMb, 0)} MB (load ${fixed(load, 2)})`,
      );
    }
  }
} finally {
  server.stop();
  rmSync(work, { recursive: true, force: true });
}
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim();
} catch {}
console.log(`# Real-site crawl: ${pkg} from ${startUrl}`);
console.log(
  `commit ${commit}; ${availableParallelism()} cores; node ${process.version}; concurrency ${concurrency}; served by ${serverKind}; load average at the end ${loadavg()
    .map((v) => fixed(v, 2))
    .join(' ')}`,
);
console.log('');
console.log('| round | variant | pages | errors | seconds | pages/s | CPU ms/page | peak RSS MB | load |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of results)
  console.log(
    `| ${r.round + 1} | ${r.variant} | ${r.pages} | ${r.errors} | ${fixed(r.wallMs / 1000)} | ${fixed(r.pages / (r.wallMs / 1000))} | ${fixed(r.cpuMs / r.pages, 2)} | ${fixed(r.maxRssMb, 0)} | ${fixed(r.load, 2)} |`,
  );
const summary = Object.fromEntries(
  variants.map((variant) => {
    const runs = results.filter((r) => r.variant === variant);
    return [
      variant,
      {
        pps: median(runs.map((r) => r.pages / (r.wallMs / 1000))),
        cpu: median(runs.map((r) => r.cpuMs / r.pages)),
        rss: Math.max(...runs.map((r) => r.maxRssMb)),
      },
    ];
  }),
);
if (summary.crawlee) {
  console.log('');
  for (const variant of variants.filter((name) => name !== 'crawlee')) {
    const ours = summary[variant];
    console.log(
      `${variant}/crawlee (medians): pages/s x${fixed(ours.pps / summary.crawlee.pps, 2)} (target >= 3), CPU/page x${fixed(ours.cpu / summary.crawlee.cpu, 2)} (target <= 0.4); ${variant} peak RSS ${fixed(ours.rss, 0)} MB (target <= 250)`,
    );
  }
}
if (summary.server && summary.cli) console.log(`server/cli pages/s: x${fixed(summary.server.pps / summary.cli.pps, 2)} (target >= 0.85)`);
// Same page set: every run against the first, normalized.
const sets = results.map((r) => new Set(r.urls.map(normalized)));
const differences = results.flatMap((r, index) => {
  const missing = [...sets[0]].filter((url) => !sets[index].has(url));
  const extra = [...sets[index]].filter((url) => !sets[0].has(url));
  return missing.length + extra.length
    ? [
        `${r.variant} round ${r.round + 1} vs ${results[0].variant} round 1: ${missing.length} missing, ${extra.length} extra (e.g. ${[...missing, ...extra].slice(0, 3).join(' ')})`,
      ]
    : [];
});
console.log(differences.length ? `PAGE SETS DIFFER:\n${differences.join('\n')}` : `Same pages: every run crawled the same ${sets[0].size} normalized URLs.`);
if (differences.length) process.exitCode = 1;
