/**
 * Before/after in one run: loads `@quarry/adapters` from a saved copy of an earlier build instead
 * of the current one, so an optimization is measured against the build before it on the same
 * machine load (alternate the two, as benchmarks/crawl-real-site/README.md describes).
 *
 *   cp -r packages/adapters/dist node_modules/.before-adapters     # before rebuilding
 *   QUARRY_PREVIOUS_ADAPTERS=node_modules/.before-adapters \
 *     NODE_OPTIONS=--import=$PWD/benchmarks/crawl-real-site/previous-build.mjs node <runner> ...
 *
 * The copy must sit inside the repository (e.g. under node_modules/) so that its own imports
 * resolve to the installed packages.
 */
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const previous = process.env.QUARRY_PREVIOUS_ADAPTERS;
if (!previous) throw new Error('previous-build.mjs needs QUARRY_PREVIOUS_ADAPTERS (a copied packages/adapters/dist)');
const target = pathToFileURL(resolve(previous, 'index.js')).href;
const hook = `export async function resolve(specifier, context, next) {
  return specifier === '@quarry/adapters' ? { url: ${JSON.stringify(target)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
