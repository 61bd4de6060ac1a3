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
  // TypeBox is 200 ES modules: loading them one by one cost ~85 ms of CPU at every process start
  // (every \`quarry\` command builds its option schemas); bundled into this package's chunks, ~7 ms.
  // Its schemas stay plain JSON Schema objects tagged with \`Symbol.for\` keys, so a copy loaded
  // elsewhere (http's batch routes) reads them as its own.
  noExternal: ['@sinclair/typebox'],
});
