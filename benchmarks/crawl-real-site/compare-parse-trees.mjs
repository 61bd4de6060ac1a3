/**
 * The parse trees of two builds compared page by page: every node's type, name, attributes, text
 * and start index, for each HTML file of the given folders (or of a file listing paths, one a line;
 * `.html.gz` files are read unzipped). Prints the first differences and the counts. A parser change
 * that must not change the tree (issue 14, twelfth pass) is checked with it before it is timed.
 *
 *   node benchmarks/crawl-real-site/compare-parse-trees.mjs --compare node_modules/.before-core DIR|LIST.txt...
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { htmlFiles } from './site-pages.mjs';

const { values, positionals } = parseArgs({ options: { compare: { type: 'string' } }, allowPositionals: true });
if (!values.compare || positionals.length === 0) throw new Error('usage: compare-parse-trees.mjs --compare DIST DIR|LIST.txt...');
const current = await import('@quarry/core');
const other = await import(pathToFileURL(resolve(values.compare, 'index.js')).href);

/** The tree as a flat list of strings, in document order. */
function flatten(node, out) {
  out.push(node.type, node.name ?? '', String(node.startIndex), node.data ?? '');
  if (node.attribs) for (const [name, value] of Object.entries(node.attribs)) out.push(name, value);
  if (node.children) {
    out.push('(');
    for (const child of node.children) flatten(child, out);
    out.push(')');
  }
  return out;
}

const read = (file) => (file.endsWith('.gz') ? gunzipSync(readFileSync(file)).toString('utf8') : readFileSync(file, 'utf8'));
let pages = 0;
let different = 0;
for (const source of positionals) {
  const files = source.endsWith('.txt') ? readFileSync(source, 'utf8').split('\n').filter(Boolean) : htmlFiles(source);
  for (const file of files) {
    const html = read(file);
    const a = flatten(current.parseHtml(html), []);
    const b = flatten(other.parseHtml(html), []);
    pages++;
    const at = a.length === b.length ? a.findIndex((item, index) => item !== b[index]) : Math.min(a.length, b.length);
    if (at === -1) continue;
    if (++different <= 5) console.log(JSON.stringify({ file, current: a.slice(at - 2, at + 3), other: b.slice(at - 2, at + 3) }));
  }
}
console.log(JSON.stringify({ pages, different }));
