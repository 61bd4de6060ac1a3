import { cp, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, defineConfig, type Options } from 'tsup';

const require = createRequire(import.meta.url);
const headerGeneratorDir = dirname(require.resolve('header-generator'));
/** generative-bayesian-network: header-generator's networks, read from zip files with adm-zip. */
const networkRequire = createRequire(createRequire(join(headerGeneratorDir, 'index.js')).resolve('generative-bayesian-network'));

/**
 * The networks' zip files read without adm-zip. At every crawl's first fetch, adm-zip (bundled) was
 * loaded and inflated the 0.8 MB header network in JavaScript, CRC-32 included: ~10-20 ms of the main
 * thread. The build unzips each network once, with the adm-zip the library would use, and writes it
 * gzipped beside the zip (`<name>.json.gz`); in the bundle, `adm-zip` is this module, which hands the
 * network library the same bytes, inflated and checked by node's zlib. Only reading is served: the
 * library's `saveNetworkDefinition` (never called here) would throw.
 */
const networkFileReader = `
const { readFileSync } = require('node:fs');
const { gunzipSync } = require('node:zlib');
module.exports = class NetworkFile {
  constructor(path) {
    if (typeof path !== 'string' || !path.endsWith('.zip')) throw new Error('header-generator bundle: only network .zip files are read, got ' + String(path));
    this.path = path;
  }
  getEntries() {
    const path = this.path;
    return [{ getData: () => gunzipSync(readFileSync(path.slice(0, -'.zip'.length) + '.json.gz')) }];
  }
};
`;

/** Writes `<name>.json.gz` beside each network zip in `dir` (the zip's one entry, gzipped). */
async function unzipNetworks(dir: string): Promise<void> {
  const AdmZip = networkRequire('adm-zip') as new (path: string) => { getEntries(): { getData(): Buffer }[] };
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.zip')) continue;
    const entries = new AdmZip(join(dir, name)).getEntries();
    if (entries.length !== 1) throw new Error(`${name}: expected one entry, got ${entries.length}`);
    await writeFile(join(dir, `${name.slice(0, -'.zip'.length)}.json.gz`), gzipSync(entries[0]!.getData()));
  }
}

/**
 * header-generator (browser-identity.ts requires it at a crawl's first fetch) is ~70 CommonJS modules
 * (ow, adm-zip, browserslist with caniuse-lite's data, ...): node resolves, reads and compiles each
 * one, ~75-115 ms of main-thread CPU at every crawl's start. Bundled into one CommonJS file,
 * `dist/header-generator.cjs`, beside a copy of its `data_files` (it reads them from its own folder),
 * requiring it and building the generator costs ~30-40 ms less (benchmarks/crawl-real-site/README.md,
 * eighth pass). browserslist, which header-generator's utils.js requires at load but calls only for a
 * `browserListQuery` (never passed here), is bundled behind a function that initializes it at its
 * first call.
 */
const headerGeneratorBundle: Options = {
  entry: { 'header-generator': join(headerGeneratorDir, 'index.js') },
  format: ['cjs'],
  outExtension: () => ({ js: '.cjs' }),
  outDir: 'dist',
  platform: 'node',
  target: 'node20',
  noExternal: [/.*/],
  dts: false,
  sourcemap: false,
  clean: false,
  silent: true,
  config: false,
  esbuildPlugins: [
    {
      name: 'browserslist-at-first-call',
      setup(esbuild) {
        esbuild.onResolve({ filter: /^browserslist$/ }, (args) =>
          args.importer.startsWith(headerGeneratorDir) ? { path: 'browserslist', namespace: 'first-call' } : undefined,
        );
        esbuild.onLoad({ filter: /.*/, namespace: 'first-call' }, () => ({
          contents: 'module.exports = (...args) => require("browserslist")(...args);',
          resolveDir: headerGeneratorDir,
        }));
      },
    },
    {
      name: 'networks-without-adm-zip',
      setup(esbuild) {
        esbuild.onResolve({ filter: /^adm-zip$/ }, (args) =>
          args.importer.includes('generative-bayesian-network') ? { path: 'adm-zip', namespace: 'network-file' } : undefined,
        );
        esbuild.onLoad({ filter: /.*/, namespace: 'network-file' }, () => ({ contents: networkFileReader, loader: 'js' }));
      },
    },
  ],
};

export default defineConfig({
  entry: ['src/index.ts', 'src/transform-worker.ts'],
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // ipaddr.js (the SSRF guard's address ranges) is one CommonJS file: imported from ES modules, node
  // scans it with cjs-module-lexer before running it, ~16-22 ms of CPU at every start against 4-8 ms
  // required, 3 fresh processes each. Bundled, it costs what a require does.
  noExternal: ['ipaddr.js'],
  // After the ES modules (and their `clean`), so that the bundle is not removed by it.
  async onSuccess() {
    await build(headerGeneratorBundle);
    await cp(join(headerGeneratorDir, 'data_files'), 'dist/data_files', { recursive: true });
    await unzipNetworks('dist/data_files');
  },
});
