// What the repository checks read from the source: each package's src/ files and the modules they
// import. Shared by check-boundaries.mjs and check-cycles.mjs so both see the same files and imports.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** Source files under `dir` (tests, dist, node_modules and declaration files left out), with `extensions`. */
export function* sourceFiles(dir, extensions = /\.(ts|mts|js|mjs)$/) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) yield* sourceFiles(path, extensions);
    else if (extensions.test(name) && !/\.(test|spec)\.ts$/.test(name) && !name.endsWith('.d.ts')) yield path;
  }
}

/** The module specifiers a file imports or re-exports (static, dynamic and side-effect imports). */
export function importsOf(file) {
  const specifiers = [];
  for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier) specifiers.push(specifier);
  }
  return specifiers;
}
