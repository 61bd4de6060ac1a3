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
});
