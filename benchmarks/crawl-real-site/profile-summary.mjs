/**
 * Self and inclusive time per function of a `.cpuprofile` (one thread), e.g. the main thread of
 * `quarry serve` profiled with `SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"` (run-server.mjs):
 *
 *   node benchmarks/crawl-real-site/profile-summary.mjs DIR/CPU.*.001.cpuprofile [top=40] [name-regex]
 *
 * A function is counted once per sample however deep it recurses; `(idle)` is the thread waiting.
 */
import { readFileSync } from 'node:fs';

const [file, topArgument = '40', filter] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.mjs <file.cpuprofile> [top] [regex]');
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
const sampled = new Map();
profile.samples.forEach((id, index) => sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0)));
const nameOf = (node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.split('/').slice(-3).join('/')}:${node.callFrame.lineNumber + 1}`;
const self = new Map();
const inclusive = new Map();
let total = 0;
for (const [id, micros] of sampled) {
  total += micros;
  const name = nameOf(nodes.get(id));
  self.set(name, (self.get(name) ?? 0) + micros);
  const seen = new Set();
  for (let current = id; current !== undefined; current = parentOf.get(current)) {
    const outer = nameOf(nodes.get(current));
    if (seen.has(outer)) continue;
    seen.add(outer);
    inclusive.set(outer, (inclusive.get(outer) ?? 0) + micros);
  }
}
const pattern = filter ? new RegExp(filter) : undefined;
for (const [label, table] of [
  ['self', self],
  ['inclusive', inclusive],
]) {
  console.log(`== ${label} (samples ${(total / 1e6).toFixed(2)} s)`);
  for (const [name, micros] of [...table]
    .filter(([name]) => !pattern || pattern.test(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(topArgument))) {
    console.log(`${(micros / 1e6).toFixed(2).padStart(7)} s ${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`);
  }
}
