/**
 * Main-thread CPU per `GotFetcher.fetch`, two builds of @quarry/adapters alternating in one process
 * (benchmarks/crawl-real-site/README.md, sixth pass). The site is served from its own process, so
 * only the client's CPU is counted (`process.cpuUsage`, this process has no other work).
 *
 *   cp -r packages/adapters/dist node_modules/.x-base-adapters     # before rebuilding
 *   node benchmarks/crawl-real-site/fetch-cpu.mjs --before node_modules/.x-base-adapters \
 *     [--root /usr/share/doc/cmake-data/html] [--page command/add_library.html] [--https] \
 *     [--fetches 1500] [--concurrency 16] [--rounds 3]
 *
 * `--https` serves the same files over TLS (HTTP/1.1, a self-signed certificate made with openssl;
 * the fetches set skipTlsVerification). Each round runs before, after, then after, before, each
 * after 200 warm-up fetches on a fresh fetcher (its own keep-alive pool).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    root: { type: 'string', default: '/usr/share/doc/cmake-data/html' },
    page: { type: 'string', default: 'command/add_library.html' },
    https: { type: 'boolean', default: false },
    fetches: { type: 'string', default: '1500' },
    concurrency: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    'serve-https': { type: 'string' },
    key: { type: 'string' },
    cert: { type: 'string' },
  },
});
const here = import.meta.dirname;
const repository = resolve(here, '../..');

if (values['serve-https']) {
  // Child mode: the same files over TLS, keep-alive, HTTP/1.1 only.
  const root = values['serve-https'];
  const server = createHttpsServer({ key: readFileSync(values.key), cert: readFileSync(values.cert), keepAlive: true }, async (request, response) => {
    let file = join(root, decodeURIComponent((request.url ?? '/').split('?')[0]));
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    const body = await readFile(file);
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    response.end(body);
  });
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ url: `https://127.0.0.1:${server.address().port}/` })));
} else {
  if (!values.before) throw new Error('--before <dir with a saved adapters dist> is required');
  await main();
}

function serve() {
  let args;
  if (values.https) {
    const dir = mkdtempSync(join(tmpdir(), 'fetch-cpu-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`],
      {
        stdio: 'ignore',
      },
    );
    args = [join(here, 'fetch-cpu.mjs'), '--serve-https', values.root, '--key', `${dir}/key.pem`, '--cert', `${dir}/cert.pem`];
  } else {
    args = [join(here, 'static-server.mjs'), values.root];
  }
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolveUrl, reject) => {
    child.stdout.once('data', (line) => resolveUrl({ child, url: JSON.parse(String(line)).url }));
    child.once('error', reject);
  });
}

async function measure(GotFetcher, url, count, concurrency) {
  const fetcher = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] });
  const request = { url: new URL(url), timeoutMs: 30_000, skipTlsVerification: true };
  const run = async (total) => {
    let next = 0;
    let bytes = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < total) {
          const response = await fetcher.fetch(request);
          if (response.status !== 200) throw new Error(`${url}: status ${response.status}`);
          bytes += response.body.length;
        }
      }),
    );
    return bytes;
  };
  await run(200);
  const start = process.cpuUsage();
  const bytes = await run(count);
  const used = process.cpuUsage(start);
  await fetcher.close();
  return { usPerFetch: (used.user + used.system) / count, bytesPerFetch: bytes / count };
}

async function main() {
  const builds = {
    before: (await import(pathToFileURL(resolve(repository, values.before, 'index.js')).href)).GotFetcher,
    after: (await import(pathToFileURL(join(repository, 'packages/adapters/dist/index.js')).href)).GotFetcher,
  };
  const { child, url } = await serve();
  const target = new URL(values.page, url).href;
  const count = Number(values.fetches);
  const concurrency = Number(values.concurrency);
  const results = { before: [], after: [] };
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const name of ['before', 'after', 'after', 'before']) {
        const result = await measure(builds[name], target, count, concurrency);
        results[name].push(result.usPerFetch);
        console.log(JSON.stringify({ round: round + 1, build: name, ...result }));
      }
    }
  } finally {
    child.kill();
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(
    JSON.stringify({
      url: target,
      before: results.before.map(Math.round),
      after: results.after.map(Math.round),
      medianBefore: Math.round(median(results.before)),
      medianAfter: Math.round(median(results.after)),
      ratio: Number((median(results.after) / median(results.before)).toFixed(3)),
    }),
  );
}
