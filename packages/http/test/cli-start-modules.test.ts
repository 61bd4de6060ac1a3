import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';

/**
 * What a `quarry crawl` of an http: site loads at start (issue 14: a small site's crawl pays its
 * process start). The built bin runs with a preload that records every module file the process
 * loads, on every thread: ES modules through a load hook, CommonJS ones through `Module._extensions`.
 */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
const run = promisify(execFile);
let site: TestServer;
let folder: string;

const recorder = (log: string) => `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { isMainThread } from 'node:worker_threads';
const log = ${JSON.stringify(log)};
// node's own modules the main thread loaded (internal ones included), one line each, at exit.
if (isMainThread) process.on('exit', () => {
  appendFileSync(log, process.moduleLoadList.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => 'builtin:' + entry.slice(13) + '\\n').join(''));
});
const Module = createRequire(import.meta.url)('node:module');
const compile = Module._extensions['.js'];
Module._extensions['.js'] = function (module, filename) {
  appendFileSync(log, filename + '\\n');
  return compile.call(this, module, filename);
};
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(\${JSON.stringify(log)}, url + '\\\\n');
  return next(url, context);
}\`));
`;

/** The packages (node_modules/<name>) whose files a crawl of the docs site with these flags loaded. */
async function packagesLoaded(name: string, flags: string[]) {
  const log = join(folder, `${name}.log`);
  const preload = join(folder, `${name}.mjs`);
  await writeFile(log, '');
  await writeFile(preload, recorder(log));
  const { stdout } = await run(process.execPath, [bin, 'crawl', `${site.url}/docs/`, '--json', '--allow-private-hosts', '127.0.0.1', ...flags], {
    env: { ...process.env, NODE_OPTIONS: `--import=${pathToFileURL(preload).href}`, QUARRY_DATA_DIR: join(folder, 'data') },
    timeout: 60_000,
  });
  const packages = new Set<string>();
  const mainThreadBuiltins = new Set<string>();
  const files = (await readFile(log, 'utf8')).split('\n');
  for (const line of files) {
    if (line.startsWith('builtin:')) {
      mainThreadBuiltins.add(line.slice('builtin:'.length));
      continue;
    }
    // The validators generated at build (ajv standalone code) call one of ajv's run-time helpers.
    if (line.includes('/ajv/dist/runtime/')) continue;
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line.replace(/\\/g, '/'));
    if (match) packages.add(match[1]!);
  }
  return {
    packages,
    mainThreadBuiltins,
    files,
    pages: stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)),
  };
}

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  folder = await mkdtemp(join(tmpdir(), 'quarry-start-modules-'));
});

afterAll(async () => {
  await site?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('quarry crawl start-up', () => {
  it('loads none of the libraries an http: crawl does not use, nor the ones bundled into core', { timeout: 90_000 }, async () => {
    const { packages, mainThreadBuiltins, files, pages } = await packagesLoaded('plain', ['--limit', '1', '--exclude-paths', '/_sources/,blog']);
    expect(pages).toHaveLength(1);
    expect(pages[0].markdown).toContain(tokenOf('/docs/'));
    // The recorder works: commander is loaded from node_modules (http's own), and the header
    // identity's generator from adapters' bundle at the first fetch.
    expect(packages).toContain('commander');
    expect(files.filter((file) => file.replace(/\\/g, '/').endsWith('/adapters/dist/header-generator.cjs'))).toHaveLength(1);
    const notLoaded = [
      // bundled into @quarry/core's and @quarry/adapters' chunks (their tsup.config.ts)
      ...['htmlparser2', 'domhandler', 'domutils', 'css-select', 'entities', 'tldts', '@sinclair/typebox', 'ipaddr.js'],
      // bundled into @quarry/adapters' header-generator.cjs, required at the first fetch (browserslist
      // and caniuse-lite initialized only for a browserListQuery, never passed)
      ...['header-generator', 'generative-bayesian-network', 'ow', 'adm-zip', 'browserslist', 'caniuse-lite'],
      // loaded at first use: a non-literal path pattern, a run-time schema, https or HTTP/2, a
      // change-tracking diff, an office file, a progress bar, a database, a browser
      ...['re2js', 'ajv', 'got-scraping', 'got', 'http2-wrapper', 'diff', 'fflate', 'cli-progress', 'better-sqlite3'],
      ...['playwright-core', 'pdfjs-dist', 'mammoth', 'fastify', '@modelcontextprotocol/sdk', 'ai', 'prom-client'],
    ];
    expect(notLoaded.filter((name) => packages.has(name))).toEqual([]);
    // node's fetch (its internal undici bundle, ~50 ms of CPU): the fetcher's response headers are
    // ResponseHeaders, not the web Headers class whose first use loads it, and node:http is required,
    // not ES-imported (on Node 22 its ES namespace reads the lazy WebSocket getter: node-http.ts).
    expect(mainThreadBuiltins).toContain('http');
    expect([...mainThreadBuiltins].filter((name) => name.includes('undici'))).toEqual([]);
  });

  it('loads re2js for a pattern that is not a literal, and the pattern still applies', { timeout: 90_000 }, async () => {
    const { packages, pages } = await packagesLoaded('regex', ['--limit', '10', '--exclude-paths', '^/docs/api/.*$']);
    expect(packages).toContain('re2js');
    const paths = pages.map((page) => new URL(page.metadata.sourceURL ?? page.metadata.url).pathname).sort();
    expect(paths).toEqual(['/docs/', '/docs/config', '/docs/install']);
  });
});
