/**
 * Serves the generated site on 127.0.0.1 in its own process, so serving costs no CPU of the crawler
 * being measured. Pages are generated once at start and served from memory with keep-alive.
 *
 *   node --import tsx benchmarks/crawl-throughput/site-server.ts --pages 5000 [--seed 1] [--port 0]
 *
 * Prints one JSON line when ready: {"url": "http://127.0.0.1:PORT/", "pages": N, "bytes": B}.
 * `GET /__stats` answers the requests served since the last `GET /__stats?reset=1` (not linked).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePage, pagePath, robotsTxt, sitemapXml } from './site.js';

function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const pages = Number(argument('--pages', '5000'));
const seed = Number(argument('--seed', '1'));
const port = Number(argument('--port', '0'));

const bodies = new Map<string, Buffer>();
let bytes = 0;
for (let index = 0; index < pages; index++) {
  const body = Buffer.from(generatePage(index, pages, seed));
  bodies.set(pagePath(index), body);
  bytes += body.length;
}

let served = 0;
let missing = 0;
const server = createServer({ keepAlive: true }, (request, response) => {
  const path = (request.url ?? '/').split('?')[0]!;
  if (path === '/__stats') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ served, missing }));
    if (request.url?.includes('reset=1')) served = missing = 0;
    return;
  }
  served++;
  const origin = `http://${request.headers.host ?? '127.0.0.1'}`;
  const body = bodies.get(path);
  if (body) {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': 'max-age=60' });
    response.end(body);
  } else if (path === '/sitemap.xml') {
    response.writeHead(200, { 'content-type': 'application/xml' });
    response.end(sitemapXml(origin, pages));
  } else if (path === '/robots.txt') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(robotsTxt(origin));
  } else {
    missing++;
    response.writeHead(404, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  }
});
server.keepAliveTimeout = 30_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}/`, pages, bytes })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
