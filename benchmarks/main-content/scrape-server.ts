/**
 * Quarry's reference server (the composition `quarry serve` runs, on a temporary data folder,
 * Fastify's inject) in front of a local HTTP server that serves page bytes as a plain static
 * server does (`content-type: text/html`, no charset): `scrape(bytes)` is what `POST /v1/scrape`
 * with the defaults returns as markdown for a page of those bytes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../packages/http/src/compose.js';
import { composeServer } from '../../packages/http/src/compose-server.js';
import { buildServer } from '../../packages/http/src/server/build-server.js';

export interface ScrapeServer {
  /** The markdown `POST /v1/scrape` gives for a page served with these bytes at `/<name>.html`. */
  scrape(name: string, bytes: Uint8Array): Promise<string>;
  close(): Promise<void>;
}

export async function startScrapeServer(): Promise<ScrapeServer> {
  const served = new Map<string, Uint8Array>();
  const site = createServer((request, response) => {
    const body = served.get(request.url ?? '');
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(body);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-scrape-server-'));
  const config = loadConfig({
    QUARRY_DATA_DIR: dataDir,
    QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    QUARRY_RATE_LIMITS: 'scrape=100000000',
    LOG_LEVEL: 'silent',
  });
  const parts = await composeServer(config);
  const app = buildServer(parts.services);
  await app.ready();

  return {
    async scrape(name, bytes) {
      const path = `/${name}.html`;
      served.set(path, bytes);
      try {
        const response = await app.inject({
          method: 'POST',
          url: '/v1/scrape',
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ url: `${siteUrl}${path}`, formats: ['markdown'] }),
        });
        if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        return (response.json() as { data: { markdown?: string } }).data.markdown ?? '';
      } finally {
        served.delete(path);
      }
    },
    async close() {
      await app.close();
      await parts.close();
      await new Promise<void>((resolve) => site.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
