import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the sources, so a change is tested without a rebuild. CLI tests run the built bin.
    alias: {
      '@quarry/core/testing': fileURLToPath(new URL('./packages/core/src/ports/testing/index.ts', import.meta.url)),
      '@quarry/core/transform': fileURLToPath(new URL('./packages/core/src/transform.ts', import.meta.url)),
      '@quarry/core': source('core'),
      '@quarry/adapters': source('adapters'),
      '@quarry/storage/distributed': fileURLToPath(new URL('./packages/storage/src/distributed.ts', import.meta.url)),
      '@quarry/storage': source('storage'),
      '@quarry/http': source('http'),
    },
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'benchmarks/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
