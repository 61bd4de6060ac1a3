/**
 * Where the main thread's CPU goes in one `quarry` command: the built packages are imported one by
 * one (core, adapters, storage, the CLI with commander), header-generator is required and built (the
 * crawl does it at its first fetch; done here first so that it is counted apart), then the command
 * runs. Each phase is the main thread's own CPU (`/proc/thread-self/schedstat`, Linux), printed to
 * stderr at exit; the transform worker and V8's threads are not in it (thread-cpu.mjs).
 *
 *   node benchmarks/crawl-real-site/start-phases.mjs crawl http://127.0.0.1:PORT/git.html --json --limit 1 --allow-private-hosts 127.0.0.1 >/dev/null
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const packages = join(import.meta.dirname, '../../packages');
const cpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
const marks = [['node start', cpuMs()]];
const mark = (name) => marks.push([name, cpuMs()]);
const load = (path) => import(pathToFileURL(join(packages, path)).href);

await load('core/dist/index.js');
mark('core');
await load('adapters/dist/index.js');
mark('adapters');
await load('storage/dist/index.js');
mark('storage');
const cli = await load('http/dist/cli.js');
mark('cli + commander');
const { HeaderGenerator } = createRequire(join(packages, 'adapters/package.json'))('header-generator');
mark('header-generator require');
new HeaderGenerator().getHeaders();
mark('header-generator build');
process.on('exit', () => {
  mark('command');
  let previous = 0;
  const phases = marks.map(([name, at]) => {
    const spent = at - previous;
    previous = at;
    return `${name} ${spent.toFixed(0)}`;
  });
  console.error(`main thread CPU ms: ${phases.join(' | ')} | total ${previous.toFixed(0)}`);
});
await cli.main([process.argv[0], 'quarry', ...process.argv.slice(2)]);
