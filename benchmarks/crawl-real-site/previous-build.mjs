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

// QUARRY_PREVIOUS_CORE (a copied packages/core/dist) does the same for `@quarry/core`; the transform
// worker loads it too, as workers inherit NODE_OPTIONS.
const previous = { '@quarry/adapters': process.env.QUARRY_PREVIOUS_ADAPTERS, '@quarry/core': process.env.QUARRY_PREVIOUS_CORE };
if (!previous['@quarry/adapters'] && !previous['@quarry/core']) {
  throw new Error('previous-build.mjs needs QUARRY_PREVIOUS_ADAPTERS or QUARRY_PREVIOUS_CORE (a copied packages/<name>/dist)');
}
const targets = Object.fromEntries(Object.entries(previous).flatMap(([name, dist]) => (dist ? [[name, pathToFileURL(resolve(dist, 'index.js')).href]] : [])));
const hook = `const targets = ${JSON.stringify(targets)};
export async function resolve(specifier, context, next) {
  return targets[specifier] ? { url: targets[specifier], shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);
