/**
 * Bytes the transform allocates per page, and where: V8's sampling heap profiler with the objects
 * the garbage collector already freed kept in (what the CPU profile's "(garbage collector)" pays
 * for), over `transformHtml` on the first N HTML pages of cmake-doc, after one warm-up pass.
 * Prints MB allocated per page and the allocating functions (self bytes; a builtin is shown with
 * its caller).
 *
 *   node benchmarks/crawl-real-site/transform-allocations.mjs [--core DIST] [--pages 300] [--top 30]
 */
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { crawlTransformInput, sitePages } from './site-pages.mjs';

const { values } = parseArgs({
  options: {
    core: { type: 'string' },
    pages: { type: 'string', default: '300' },
    top: { type: 'string', default: '30' },
    dir: { type: 'string', default: '/usr/share/doc/cmake-data/html' },
  },
});
const core = await (values.core ? import(pathToFileURL(resolve(values.core, 'index.js')).href) : import('@quarry/core'));

const pages = sitePages(values.dir, Number(values.pages));
const transformAll = () => {
  for (const page of pages) {
    core.transformHtml(crawlTransformInput(page));
  }
};

transformAll(); // warm-up: compiled code, not the first pass's one-off allocations
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 4096,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
transformAll();
const { profile } = await session.post('HeapProfiler.stopSampling');

const bytes = new Map();
let total = 0;
const visit = (node, caller) => {
  const { functionName, lineNumber, url } = node.callFrame;
  const name = `${functionName || '(anonymous)'}:${lineNumber}`;
  const key = url === '' ? `${name} < ${caller}` : `${name} ${url.split('/').pop()}`;
  bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) visit(child, name);
};
visit(profile.head, '');
console.log(JSON.stringify({ core: values.core ?? 'current', pages: pages.length, allocatedMbPerPage: Number((total / 1e6 / pages.length).toFixed(3)) }));
for (const [key, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) {
  console.log(`${((100 * size) / total).toFixed(1).padStart(5)} %  ${key}`);
}
