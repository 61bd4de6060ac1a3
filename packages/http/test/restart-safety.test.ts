import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';

/**
 * SIGKILL the real `quarry serve` process in the middle of a crawl and start it again on the same
 * data folder: the crawl goes on and completes with every page exactly once, and creditsUsed equals
 * the pages returned. Runs the built CLI (npm test builds first).
 */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
const pageCount = 40;
let site: TestServer;
let dataDir: string;
let child: ChildProcess | undefined;

function page(index: number): string {
  const links = [1, 2, 3].map((step) => `<a href="/p/${(index + step) % pageCount}">next ${step}</a>`).join(' ');
  return `<html><head><title>Page ${index}</title></head><body><main><h1>Page ${index}</h1><p>Unique token tok-${index}-end with some prose for the main content of this page.</p>${links}</main></body></html>`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function startServer(port: number): ChildProcess {
  const process_ = spawn(process.execPath, [bin, 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      QUARRY_DATA_DIR: dataDir,
      QUARRY_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      LOG_LEVEL: 'warn',
      QUARRY_WORKER_CONCURRENCY: '2',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  process_.stderr?.on('data', () => undefined);
  return process_;
}

async function json(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return (await response.json()) as Record<string, any>;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'quarry-restart-'));
  site = await startTestServer(async (_request, response, url) => {
    const match = /^\/p\/(\d+)$/.exec(url.pathname);
    if (url.pathname === '/') {
      response.writeHead(301, { location: '/p/0' });
      return response.end();
    }
    if (!match) {
      response.writeHead(404);
      return response.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 60));
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(page(Number(match[1])));
  });
});

afterAll(async () => {
  child?.kill('SIGKILL');
  await site?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('restart safety', () => {
  it('finishes a crawl after SIGKILL with every page exactly once', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = startServer(port);
    await waitFor(
      () =>
        fetch(`${base}/health`).then(
          (response) => response.ok,
          () => false,
        ),
      { timeoutMs: 20_000, message: 'server start' },
    );
    const started = await json(`${base}/v2/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.url}/p/0`, crawlEntireDomain: true, sitemap: 'skip', maxConcurrency: 2 }),
    });
    expect(started.success).toBe(true);
    await waitFor(async () => (await json(`${base}/v2/crawl/${started.id}`)).completed >= 8, { message: 'some pages' });

    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = startServer(port);
    await waitFor(
      () =>
        fetch(`${base}/health`).then(
          (response) => response.ok,
          () => false,
        ),
      { timeoutMs: 20_000, message: 'server restart' },
    );

    const done = await waitFor(
      async () => {
        const status = await json(`${base}/v2/crawl/${started.id}?limit=1000`);
        return status.status === 'completed' ? status : undefined;
      },
      { timeoutMs: 60_000, message: 'crawl completion' },
    );
    const tokens = (done.data as Array<{ markdown: string }>).map((document) => /tok-(\d+)-end/.exec(document.markdown)?.[1]);
    expect(new Set(tokens).size).toBe(pageCount);
    expect(tokens).toHaveLength(pageCount);
    expect(done.completed).toBe(pageCount);
    expect(done.creditsUsed).toBe(pageCount);
  }, 120_000);
});
