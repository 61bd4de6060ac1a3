#!/usr/bin/env node
// The circular-import check of STYLE.md §10: no module may import itself back through a chain of relative
// imports inside a package's src/. A cycle makes load order decide what a module sees (an export read as
// undefined at import time) and ties files that should change alone. Type-only imports count too: they
// bind the files' designs together all the same. Fails the test run and prints each cycle once.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { importsOf, sourceFiles } from './source-imports.mjs';

// The repository root, or the folder given as the first argument.
const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;

/** Resolves a relative specifier ('./a.js', '../b', './dir') to a source file, or undefined. */
function resolveSource(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.(m?js|ts)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.mts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const graph = new Map();
for (const pkg of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', pkg, 'src');
  if (!existsSync(dir)) continue;
  for (const file of sourceFiles(dir, /\.(ts|mts)$/)) {
    const edges = new Set();
    for (const specifier of importsOf(file)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSource(file, specifier);
      if (target) edges.add(target);
    }
    graph.set(file, [...edges]);
  }
}

// Tarjan's strongly connected components: every component of more than one file (or a self-import) is a cycle.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(node) {
  index.set(node, counter);
  low.set(node, counter);
  counter += 1;
  stack.push(node);
  onStack.add(node);
  for (const next of graph.get(node) ?? []) {
    if (!index.has(next)) {
      visit(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(node, Math.min(low.get(node), index.get(next)));
    }
  }
  if (low.get(node) !== index.get(node)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== node);
  if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component);
}
for (const node of graph.keys()) if (!index.has(node)) visit(node);

if (cycles.length > 0) {
  const lines = cycles.map((component) =>
    component
      .map((file) => relative(root, file))
      .sort()
      .join(' <-> '),
  );
  console.error(`Import cycle check failed (STYLE.md §10):\n- ${lines.join('\n- ')}`);
  process.exit(1);
}
console.log(`Import cycle check passed (${graph.size} modules).`);
