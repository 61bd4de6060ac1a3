/**
 * Page signals (`pageSignalsOf` on the parsed tree, `pageSignals` streaming) of a saved core build
 * against the current one, on every `.html` file under the given folders: the signals must be the
 * same, and the time of `pageSignalsOf` per build is printed (same process, builds in turn per page).
 *
 *   cp -r packages/core/dist packages/core/.before-dist      # before the change; then rebuild
 *   node benchmarks/crawl-real-site/signals-compare.mjs packages/core/.before-dist /usr/share/doc/postgresql-doc-15/html ...
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [beforeDist, ...folders] = process.argv.slice(2);
if (!beforeDist || folders.length === 0) throw new Error('usage: signals-compare.mjs <saved core dist> <folder>...');
const before = await import(pathToFileURL(resolve(beforeDist, 'index.js')).href);
const after = await import('@quarry/core');
const htmlFiles = (dir, out = []) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) htmlFiles(path, out);
    else if (name.endsWith('.html')) out.push(path);
  }
  return out;
};
let pages = 0;
let different = 0;
const ms = { before: 0, after: 0 };
for (const folder of folders) {
  for (const file of htmlFiles(folder)) {
    const html = readFileSync(file, 'utf8');
    const signals = {};
    for (const [name, build] of pages % 2
      ? [
          ['before', before],
          ['after', after],
        ]
      : [
          ['after', after],
          ['before', before],
        ]) {
      const document = build.parseHtml(html);
      const started = performance.now();
      const fromTree = build.pageSignalsOf(document);
      ms[name] += performance.now() - started;
      signals[name] = JSON.stringify([fromTree, build.pageSignals(html)]);
    }
    pages++;
    if (signals.before !== signals.after) {
      different++;
      if (different <= 3) console.log(`different: ${file}`);
    }
  }
}
console.log(JSON.stringify({ pages, different, beforeMsPerPage: +(ms.before / pages).toFixed(3), afterMsPerPage: +(ms.after / pages).toFixed(3) }));
