/**
 * In-process CPU per page of the transform (parse, main content, markdown, links): `transformHtml`
 * over the first N HTML pages of an installed Debian documentation package, as the CLI crawl's
 * transform worker runs it. Prints CPU ms/page, the garbage collector's share and a hash of every
 * page's markdown and links, so two builds can be compared for speed and identical output.
 *
 *   node benchmarks/crawl-real-site/transform-pages.mjs [--core DIST] [--pages 600] [--dir DIR] [--repeat 1]
 *
 * `--core` loads a copied `packages/core/dist` (e.g. node_modules/.before-core) instead of the
 * current build. `--compare DIST` runs the current build and DIST in the same process, page by page
 * alternating which goes first, so both see the same machine load (the steady figure on a shared
 * machine; use `--repeat 3`). Add `node --cpu-prof` to profile. With `--compare`, every page whose
 * markdown or links differ between the two builds is listed (URL and first differing line), so a
 * change meant to keep the output can be checked page by page, not only by the hash.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { crawlTransformInput, sitePages } from './site-pages.mjs';

const { values } = parseArgs({
  options: {
    core: { type: 'string' },
    pages: { type: 'string', default: '600' },
    dir: { type: 'string', default: '/usr/share/doc/cmake-data/html' },
    repeat: { type: 'string', default: '1' },
    compare: { type: 'string' },
  },
});
const load = (dist) => (dist ? import(pathToFileURL(resolve(dist, 'index.js')).href) : import('@quarry/core'));
const variants = [{ name: values.core ?? 'current', core: await load(values.core) }];
if (values.compare) variants.push({ name: values.compare, core: await load(values.compare) });

const pages = sitePages(values.dir, Number(values.pages));

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
for (const variant of variants) Object.assign(variant, { hash: createHash('sha256'), cpu: 0 });
/** Pages whose output differs between the two builds: URL and first differing line of each. */
const differences = [];
const firstDifference = (left, right) => {
  const leftLines = left.split('\n');
  const rightLines = right.split('\n');
  const index = leftLines.findIndex((line, position) => line !== rightLines[position]);
  const at = index < 0 ? leftLines.length : index;
  return `line ${at + 1}: ${JSON.stringify((leftLines[at] ?? '').slice(0, 120))} vs ${JSON.stringify((rightLines[at] ?? '').slice(0, 120))}`;
};
for (let round = 0; round < Number(values.repeat); round++) {
  pages.forEach((page, index) => {
    const order = (index + round) % 2 === 0 ? variants : [...variants].reverse();
    const texts = new Map();
    for (const variant of order) {
      const start = cpuMs();
      const output = variant.core.transformHtml(crawlTransformInput(page));
      variant.cpu += cpuMs() - start;
      if (round !== 0) continue;
      const text = `${output.markdown}\n${output.links.join('\n')}\n`;
      variant.hash.update(`${page.url}\n${text}`);
      texts.set(variant, text);
    }
    if (round === 0 && variants.length === 2 && texts.get(variants[0]) !== texts.get(variants[1])) {
      differences.push(`${page.url} ${firstDifference(texts.get(variants[0]), texts.get(variants[1]))}`);
    }
  });
}
const count = pages.length * Number(values.repeat);
await new Promise((done) => setTimeout(done, 10)); // let the last gc entries arrive
for (const variant of variants) {
  console.log(
    JSON.stringify({
      core: variant.name,
      pages: count,
      cpuMsPerPage: Number((variant.cpu / count).toFixed(3)),
      hash: variant.hash.digest('hex').slice(0, 16),
    }),
  );
}
console.log(JSON.stringify({ gcMsPerPage: Number((gcMs / count / variants.length).toFixed(3)) }));
if (variants.length === 2) {
  console.log(JSON.stringify({ pagesDiffering: differences.length }));
  for (const line of differences.slice(0, 50)) console.log(`  differs: ${line}`);
}
