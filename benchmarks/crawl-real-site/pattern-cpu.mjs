/**
 * CPU per path of the cmake-doc crawl's four exclude patterns: re2js (what PathMatcher ran for every
 * link) against the substring test it now uses for literal patterns (benchmarks/crawl-real-site/README.md,
 * sixth pass: main thread). The paths are the pages of a `quarry crawl --json` output:
 *
 *   node packages/http/bin/quarry.js crawl http://127.0.0.1:PORT/index.html --json ... > crawl.json
 *   node benchmarks/crawl-real-site/pattern-cpu.mjs crawl.json
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const { RE2JS } = await import(require.resolve('re2js'));
const paths = readFileSync(process.argv[2], 'utf8')
  .trim()
  .split('\n')
  .map((line) => new URL(JSON.parse(line).metadata.url).pathname);
const patterns = ['/_sources/', '/_downloads/', '/_images/', '/_static/'];
const regexes = patterns.map((p) => RE2JS.compile(p));
const variants = { re2js: (t) => regexes.some((r) => r.test(t)), includes: (t) => patterns.some((p) => t.includes(p)) };
const rounds = 20;
for (let round = 0; round < 4; round++) {
  for (const name of round % 2 ? ['includes', 're2js'] : ['re2js', 'includes']) {
    const test = variants[name];
    let hits = 0;
    const start = process.cpuUsage();
    for (let i = 0; i < rounds; i++) for (const t of paths) if (test(t)) hits++;
    const used = process.cpuUsage(start);
    console.log(round, name, (((used.user + used.system) * 1000) / (rounds * paths.length)).toFixed(0), 'ns per path', hits);
  }
}
