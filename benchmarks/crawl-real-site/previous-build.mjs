/**
 * Before/after in one run: loads a package from a saved copy of an earlier build instead of the
 * current one, so an optimization is measured against the build before it on the same machine load
 * (alternate the two, as benchmarks/crawl-real-site/README.md describes).
 *
 *   cp -r packages/adapters/dist packages/adapters/.before-dist     # before rebuilding
 *   QUARRY_PREVIOUS_ADAPTERS=packages/adapters/.before-dist \
 *     NODE_OPTIONS=--import=$PWD/benchmarks/crawl-real-site/previous-build.mjs node <runner> ...
 *
 * QUARRY_PREVIOUS_CORE, QUARRY_PREVIOUS_STORAGE and QUARRY_PREVIOUS_HTTP do the same for the other
 * packages (the last for the CLI too: `bin/quarry.js` imports `../dist/cli.js`). Every module whose
 * resolved URL lies in `packages/<name>/dist/` (the entry, its chunks, lazily imported ones) is read
 * from the copy. The transform worker loads the copies too, as workers inherit NODE_OPTIONS.
 *
 * The copy must sit inside its package (e.g. packages/http/.before-dist) so that its own imports
 * resolve as the package's do (http has its own node_modules/commander). The hook's loader thread
 * costs ~20 MB of RSS: give the "after" run the hook too (e.g. QUARRY_PREVIOUS_STORAGE pointing to
 * an unchanged copy), or its RSS is not comparable.
 */
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const repository = resolve(import.meta.dirname, '../..');
const previous = {
  adapters: process.env.QUARRY_PREVIOUS_ADAPTERS,
  core: process.env.QUARRY_PREVIOUS_CORE,
  storage: process.env.QUARRY_PREVIOUS_STORAGE,
  http: process.env.QUARRY_PREVIOUS_HTTP,
};
const prefixes = Object.entries(previous).flatMap(([name, dist]) =>
  dist ? [[`${pathToFileURL(resolve(repository, 'packages', name, 'dist')).href}/`, `${pathToFileURL(resolve(dist)).href}/`]] : [],
);
if (prefixes.length === 0) {
  throw new Error('previous-build.mjs needs QUARRY_PREVIOUS_ADAPTERS, _CORE, _STORAGE or _HTTP (a copied packages/<name>/dist)');
}
const hook = `const prefixes = ${JSON.stringify(prefixes)};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  for (const [from, to] of prefixes) if (resolved.url.startsWith(from)) return { ...resolved, url: to + resolved.url.slice(from.length) };
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
