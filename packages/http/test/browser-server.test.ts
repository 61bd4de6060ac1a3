import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '@quarry/adapters';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** The server with the browser engine: screenshots stored as blobs and served under unguessable ids. */
const chromiumPath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
const skip = !chromiumPath && process.env.CI !== 'true';
if (skip) console.warn('Browser server tests skipped: no Chromium found (apt-get install chromium, or set QUARRY_CHROMIUM_PATH)');

let site: TestServer;
let quarry: TestQuarry;

beforeAll(async () => {
  site = await startTestServer({
    '/long': {
      body: `<!doctype html><html><body>${Array.from({ length: 40 }, (_, index) => `<p style="height:50px">Row ${index}</p>`).join('')}</body></html>`,
    },
  });
  if (!skip) quarry = await startQuarry({ QUARRY_CHROMIUM_PATH: chromiumPath!, QUARRY_TRANSFORM_THREADS: '1' });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${quarry.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

async function pngAt(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  const bytes = Buffer.from(await response.arrayBuffer());
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.skipIf(skip)('server with the browser engine', () => {
  it('v2: returns the screenshot as a URL the server serves', async () => {
    const { status, body } = await post('/v2/scrape', { url: `${site.url}/long`, formats: ['markdown', 'screenshot'] });
    expect(status).toBe(200);
    expect(body.data.metadata.engine).toBe('browser');
    expect(body.data.screenshot).toMatch(new RegExp(`^${quarry.url}/v2/blobs/[0-9a-f]{32}$`));
    expect(await pngAt(body.data.screenshot)).toEqual({ width: 1280, height: 720 });
  });

  it('v1: screenshot@fullPage captures the whole page', async () => {
    const { status, body } = await post('/v1/scrape', { url: `${site.url}/long`, formats: ['screenshot@fullPage'] });
    expect(status).toBe(200);
    const size = await pngAt(body.data.screenshot);
    expect(size.height).toBeGreaterThan(40 * 50);
  });

  it('answers 404 for unknown and malformed blob ids', async () => {
    expect((await fetch(`${quarry.url}/v2/blobs/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${quarry.url}/v2/blobs/..%2F..%2Fquarry.db`)).status).toBe(404);
  });
});
