import { cp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build, defineConfig, type Options } from 'tsup';

const require = createRequire(import.meta.url);
const headerGeneratorDir = dirname(require.resolve('header-generator'));

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
  },
});
