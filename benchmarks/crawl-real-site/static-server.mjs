/**
 * Serves a directory of installed documentation on 127.0.0.1 in its own process (keep-alive), so
 * serving costs no CPU of the crawler being measured.
 *
 *   node static-server.mjs <root> [port=0]
 *
 * Prints one JSON line when ready: {"url": "http://127.0.0.1:PORT/"}. `GET /__stats?reset=1` answers
 * and resets the count of requests served (not linked from any page).
 */
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const [root, port = '0'] = process.argv.slice(2);
if (!root) throw new Error('usage: node static-server.mjs <root> [port]');
const types = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.txt': 'text/plain',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};
let served = 0;
const server = createServer({ keepAlive: true }, async (request, response) => {
  const path = decodeURIComponent((request.url ?? '/').split('?')[0]);
  if (path === '/__stats') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ served }));
    if (request.url?.includes('reset=1')) served = 0;
    return;
  }
  served++;
  let file = join(root, normalize(path).replace(/^(\.\.[/\\])+/, ''));
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
    const body = await readFile(file);
    response.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream', 'content-length': body.length });
    response.end(body);
  } catch {
    response.writeHead(404, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
  }
});
server.keepAliveTimeout = 30_000;
server.listen(Number(port), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
