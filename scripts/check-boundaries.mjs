#!/usr/bin/env node
// The package boundary rule of ARCHITECTURE.md: dependencies point http -> adapters, storage -> core,
// and core (the pure engine) imports no I/O library. Fails the test run when a file breaks it.
import { readFileSync } from 'node:fs';
import { importsOf, sourceFiles } from './source-imports.mjs';
import { join, relative } from 'node:path';

// The repository root, or the folder given as the first argument (the boundary test uses a fixture tree).
const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;

const forbiddenInCore = [
  /^got(-scraping)?$/,
  /^playwright/,
  /^crawlee$/,
  /^@crawlee\//,
  /^better-sqlite3$/,
  /^pg$/,
  /^ioredis$/,
  /^bullmq$/,
  /^fastify/,
  /^undici$/,
  /^axios$/,
  /^ws$/,
  /^(node:)?(fs|fs\/promises|net|http|https|http2|child_process|dgram|dns|dns\/promises|tls|cluster)$/,
];
const allowedQuarryImports = {
  core: [],
  adapters: ['@quarry/core'],
  storage: ['@quarry/core'],
  http: ['@quarry/core', '@quarry/adapters', '@quarry/storage'],
};

const problems = [];
for (const [pkg, allowed] of Object.entries(allowedQuarryImports)) {
  const dir = join(root, 'packages', pkg, 'src');
  for (const file of sourceFiles(dir)) {
    // Test support (core/src/test: local sites and the Fetcher suite) and conformance suites run servers by design;
    // they are exported only through @quarry/core/testing, never from the engine's entry.
    if (pkg === 'core' && /\/src\/(test|ports\/testing)\//.test(file)) continue;
    for (const specifier of importsOf(file)) {
      const where = relative(root, file);
      if (specifier.startsWith('@quarry/')) {
        const target = specifier.split('/').slice(0, 2).join('/');
        if (!allowed.includes(target)) problems.push(`${where}: ${pkg} must not import ${target}`);
      } else if (pkg === 'core' && forbiddenInCore.some((pattern) => pattern.test(specifier))) {
        problems.push(`${where}: core must stay pure but imports the I/O library "${specifier}"`);
      }
    }
  }
}

// One home for billing (docs/architecture.md): only core's billing/ charges the Ledger; routes,
// actions, the dashboard and the job code charge through Billing (or JobStore.finishItem).
const ledgerCharge = /\bledger\??\.(charge|chargeTokens|chargeUsage)\s*\(/i;
for (const pkg of ['core', 'http']) {
  for (const file of sourceFiles(join(root, 'packages', pkg, 'src'))) {
    if (/\/src\/(billing|test|ports\/testing)\//.test(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (ledgerCharge.test(line) && !/^\s*(\*|\/\/)/.test(line)) {
        problems.push(`${relative(root, file)}:${index + 1}: charges the Ledger directly; charge through Billing (core/src/billing/billing.ts)`);
      }
    });
  }
}

if (problems.length > 0) {
  console.error(`Package boundary check failed (see ARCHITECTURE.md):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log('Package boundary check passed.');
