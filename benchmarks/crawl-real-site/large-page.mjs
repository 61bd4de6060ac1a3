/**
 * One large page through `transformHtml` once, as a crawl's worker converts it: prints the CPU time
 * and a hash of the markdown and links. Run it under `--trace-gc` to read the heap at each
 * collection (issue 14, sixth pass: nodejs-doc's `all.html`).
 *
 *   node --trace-gc --heap-growing-percent=20 benchmarks/crawl-real-site/large-page.mjs FILE [CORE_DIST]
 *
 * CORE_DIST: a copied `packages/core/dist` under the worktree (e.g. node_modules/.before-core).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crawlTransformInput } from './site-pages.mjs';

const [file, coreDist = resolve(import.meta.dirname, '../../packages/core/dist')] = process.argv.slice(2);
if (!file) throw new Error('usage: large-page.mjs FILE [CORE_DIST]');
const { transformHtml } = await import(pathToFileURL(resolve(coreDist, 'transform.js')).href);
const html = readFileSync(file, 'utf8');
const started = process.cpuUsage();
const output = transformHtml(crawlTransformInput({ url: 'http://127.0.0.1/large.html', html }));
const { user, system } = process.cpuUsage(started);
const hash = createHash('sha256').update(output.markdown).update(JSON.stringify(output.links)).digest('hex').slice(0, 16);
console.log(JSON.stringify({ characters: html.length, cpuMs: Math.round((user + system) / 1000), hash }));
