/**
 * Where one CLI crawl's wall time goes: serves <root> in this process (recording when each
 * request arrives and is answered), runs `quarry crawl --json` as run-cli.mjs does, and records when
 * each JSON line arrives, when stdout ends and when the process exits. Prints the gaps.
 *
 *   node crawl-timeline.mjs <root> <startPath> [concurrency=16]     (CRAWL_EXCLUDE as run-cli.mjs)
 *
 * TIMELINE_DETAIL=1 also prints the first 40 requests (start-end, ms after spawn) and JSON lines.
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join, normalize } from 'node:path';
import { createInterface } from 'node:readline';
import { spawnCliCrawl } from './cli-crawl.mjs';

const [root, start, concurrency = '16'] = process.argv.slice(2);
if (!root || !start) throw new Error('usage: crawl-timeline.mjs <root> <startPath> [concurrency]');
const requests = [];
let inFlight = 0;
let maxInFlight = 0;
const t0 = performance.now();
const now = () => performance.now() - t0;
const server = createServer({ keepAlive: true }, async (request, response) => {
  const entry = { path: request.url, start: now(), inFlight: ++inFlight };
  maxInFlight = Math.max(maxInFlight, inFlight);
  requests.push(entry);
  let file = join(root, normalize(decodeURIComponent(request.url.split('?')[0])).replace(/^(\.\.[/\\])+/, ''));
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    const body = await readFile(file);
    response.writeHead(200, {
      'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream',
      'content-length': body.length,
    });
    response.end(body);
  } catch {
    response.writeHead(404, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  }
  inFlight--;
  entry.end = now();
});
server.keepAliveTimeout = 30_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;
const spawnedAt = now();
const child = spawnCliCrawl(base + start, { concurrency });
const exited = new Promise((resolve) => child.once('exit', () => resolve(now())));
const lines = [];
for await (const _line of createInterface({ input: child.stdout })) lines.push(now());
const stdoutEnd = now();
const exitAt = await exited;
server.close();
server.closeAllConnections();
const pages = requests.filter((r) => !/robots\.txt|sitemap/.test(r.path));
const firstRequest = requests[0]?.start ?? Number.NaN;
const lastResponse = Math.max(...requests.map((r) => r.end ?? 0));
// Seconds of wall in which no request was open on the server (the fetchers waited on something else).
let idle = 0;
const events = requests
  .flatMap((r) => [
    [r.start, 1],
    [r.end ?? r.start, -1],
  ])
  .sort((a, b) => a[0] - b[0]);
let open = 0;
let last = firstRequest;
for (const [time, delta] of events) {
  if (open === 0) idle += time - last;
  open += delta;
  last = time;
}
const ms = (value) => Math.round(value);
const quartile = (q) => ms(lines[Math.min(lines.length - 1, Math.floor(q * lines.length))] - spawnedAt);
if (process.env.TIMELINE_DETAIL) {
  console.error(
    requests
      .slice(0, 40)
      .map((r) => `${r.path} ${ms(r.start - spawnedAt)}-${ms((r.end ?? 0) - spawnedAt)}`)
      .join('\n'),
  );
  console.error(
    'lines',
    lines
      .slice(0, 40)
      .map((l) => ms(l - spawnedAt))
      .join(' '),
  );
}
console.log(
  JSON.stringify({
    requests: requests.length,
    pageRequests: pages.length,
    lines: lines.length,
    firstRequestMs: ms(firstRequest - spawnedAt),
    firstRequests: requests.slice(0, 3).map((r) => `${r.path}@${ms(r.start - spawnedAt)}`),
    firstLineMs: ms(lines[0] - spawnedAt),
    lineQuartilesMs: [quartile(0.25), quartile(0.5), quartile(0.75)],
    lastResponseMs: ms(lastResponse - spawnedAt),
    lastLineMs: ms(lines.at(-1) - spawnedAt),
    stdoutEndMs: ms(stdoutEnd - spawnedAt),
    exitMs: ms(exitAt - spawnedAt),
    serverIdleMs: ms(idle),
    maxInFlight,
  }),
);
