import { defineConfig } from 'tsup';

export default defineConfig({
  // `@quarry/core/testing`: the test site helpers and the port conformance suites.
  // `@quarry/core/transform`: transformHtml alone, for the transform worker threads.
  entry: { index: 'src/index.ts', transform: 'src/transform.ts', 'ports/testing/index': 'src/ports/testing/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
  // Libraries loaded at every start, bundled into this package's chunks instead of loaded from
  // node_modules one module at a time. TypeBox is 200 ES modules: ~85 ms of CPU at every process
  // start, ~7 ms bundled. Its schemas stay plain JSON Schema objects tagged with `Symbol.for` keys,
  // so a copy loaded elsewhere (http's batch routes) reads them as its own.
  // The HTML parser and selector engine (htmlparser2, domhandler, domutils, css-select, entities and
  // their helpers: ~90 ES modules) are loaded by the main thread and by every transform worker;
  // tldts is one 200 KB CommonJS file that node scans for its exports (cjs-module-lexer) before
  // running it (re2js, a large one too, is left out: it loads at the first non-literal path
  // pattern, path-patterns.ts). Bundled, `import('@quarry/core')` costs ~150 ms of CPU
  // instead of ~320 ms, `@quarry/core/transform` ~45 instead of ~120 (load ~10, 6 alternating
  // runs each). Core reads trees by node type (domhandler's `isTag`...), never `instanceof`, so a tree
  // parsed by a caller's own htmlparser2 still converts with `htmlToMarkdown`.
  noExternal: [
    '@sinclair/typebox',
    'htmlparser2',
    'domhandler',
    'domutils',
    'domelementtype',
    'dom-serializer',
    'entities',
    'css-select',
    'css-what',
    'nth-check',
    'boolbase',
    'tldts',
    'tldts-core',
  ],
});
