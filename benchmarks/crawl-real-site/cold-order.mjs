/**
 * Does the order in which a cold process converts a site's pages change its total CPU? Each run is
 * a fresh child process that loads core's transform entry (as the transform worker does) and
 * converts every page of the site once, in one order; it prints the load's CPU, the pages' CPU
 * (process.cpuUsage: every thread, V8's GC and compiler helpers included) and the output's hash.
 * Orders alternate run by run, both ways round, so they share the machine's load.
 *
 *   node benchmarks/crawl-real-site/cold-order.mjs [--dir DIR] [--large changes.html] [--runs 4] [--orders ...]
 *
 * Orders (comma-separated): `large-first` (the large page first, the rest in file order),
 * `large-after-N` (after N pages in file order), `smallest-first`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { crawlTransformInput, sitePages } from './site-pages.mjs';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/usr/share/doc/sphinx-doc/html' },
    large: { type: 'string', default: 'changes.html' },
    runs: { type: 'string', default: '4' },
    child: { type: 'string' },
    orders: { type: 'string', default: 'large-first,large-after-8,smallest-first' },
  },
});

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

if (values.child) {
  const start = cpuMs();
  const t0 = performance.now();
  const { transformHtml } = await import('@quarry/core/transform');
  const loadCpu = cpuMs() - start;
  const loadWall = performance.now() - t0;
  const pages = sitePages(values.dir, 100000);
  const large = pages.find((page) => page.url.endsWith(`/${values.large}`));
  const rest = pages.filter((page) => page !== large);
  const order =
    values.child === 'large-first'
      ? [large, ...rest]
      : values.child.startsWith('large-after-')
        ? [...rest.slice(0, Number(values.child.slice(12))), large, ...rest.slice(Number(values.child.slice(12)))]
        : [...pages].sort((a, b) => a.html.length - b.html.length);
  const hash = createHash('sha256');
  const outputs = new Map();
  const before = cpuMs();
  let largeMs = 0;
  for (const page of order) {
    const at = cpuMs();
    const output = transformHtml(crawlTransformInput(page));
    if (page === large) largeMs = cpuMs() - at;
    outputs.set(page.url, `${output.markdown}\n${output.links.join('\n')}`);
  }
  const pagesCpu = cpuMs() - before;
  for (const page of pages) hash.update(`${page.url}\n${outputs.get(page.url)}\n`);
  console.log(JSON.stringify({ loadCpu, loadWall, pagesCpu, largeMs, hash: hash.digest('hex').slice(0, 12) }));
} else {
  const orders = values.orders.split(',');
  const results = Object.fromEntries(orders.map((order) => [order, []]));
  for (let run = 0; run < Number(values.runs); run++) {
    const sequence = run % 2 === 0 ? orders : [...orders].reverse();
    for (const order of sequence) {
      const out = execFileSync(process.execPath, [import.meta.filename, '--dir', values.dir, '--large', values.large, '--child', order], { encoding: 'utf8' });
      results[order].push(JSON.parse(out));
    }
  }
  for (const order of orders) {
    const rows = results[order];
    const fmt = (key) => rows.map((row) => row[key].toFixed(0)).join('/');
    console.log(
      `${order}: pages CPU ${fmt('pagesCpu')} ms; large page ${fmt('largeMs')} ms; load CPU ${fmt('loadCpu')} ms (wall ${fmt('loadWall')}); hash ${[...new Set(rows.map((row) => row.hash))].join(',')}`,
    );
  }
}
