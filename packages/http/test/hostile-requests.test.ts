import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * Requests built to crash or confuse the server: each is answered 4xx with the field named in the
 * API's error body, and the server keeps answering /health.
 */
let quarry: TestQuarry;

beforeAll(async () => {
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
});

async function send(method: string, path: string, body?: string) {
  const response = await fetch(`${quarry.url}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }),
  });
  return { status: response.status, body: (await response.json()) as { success: boolean; error: string; code?: string; details?: unknown } };
}

// Whatever a request did, the server answers /health within a second afterwards.
afterEach(async () => {
  const started = performance.now();
  const response = await fetch(`${quarry.url}/health`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(1_000);
});

describe('hostile requests', () => {
  it.each([
    ['arrays', `{"url":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
    ['objects', `{"url":"https://example.com","a":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`],
  ])('a JSON body nested thousands deep (%s) is a 400 naming the body', async (_name, body) => {
    const answer = await send('POST', '/v1/scrape', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, error: expect.stringContaining('more than 64 levels deep') });
    expect(JSON.stringify(answer.body.details)).toContain('body');
  });

  it('nesting inside strings does not count', async () => {
    const answer = await send('POST', '/v1/scrape', JSON.stringify({ url: `not a url ${'['.repeat(1_000)}` }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/`url`/);
  });

  it('a 100,000-character URL is a 400 naming url', async () => {
    const answer = await send('POST', '/v2/scrape', JSON.stringify({ url: `https://example.com/${'a'.repeat(100_000)}` }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/`url` must be at most 8192 characters/);
  });

  it('a host longer than DNS allows (3,000 ü, 6,000 punycode characters) is a 400 naming url, not a fetch through every engine', async () => {
    const started = performance.now();
    const answer = await send('POST', '/v1/scrape', JSON.stringify({ url: `http://${'ü'.repeat(3_000)}.test/` }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/`url` must have a host name of at most 253 characters/);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a body past the 10 MB limit is a 413 that says so, not an internal error', async () => {
    const answer = await send('POST', '/v1/scrape', JSON.stringify({ url: 'https://example.com', pad: 'a'.repeat(11 * 1024 * 1024) }));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', error: expect.stringContaining('10 MB') });
    expect(answer.body.error).not.toMatch(/unexpected/i);
  });

  it('a headers option with 10,000 entries is a 400 naming headers', async () => {
    const headers = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`x-h${index}`, 'v']));
    const answer = await send('POST', '/v1/scrape', JSON.stringify({ url: 'https://example.com', headers }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/headers/);
  });

  it.each(['/v1/crawl/', '/v2/crawl/', '/v1/batch/scrape/', '/v2/extract/'])('an over-long id in %s is a 400 in the API error body', async (path) => {
    const answer = await send('GET', `${path}${'a'.repeat(5_000)}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ success: false, error: expect.stringContaining('longer than 256 characters') });
    expect(JSON.stringify(answer.body)).not.toMatch(/FST_/);
  });

  it('an unknown short id is still a 404', async () => {
    expect((await send('GET', `/v1/crawl/${'a'.repeat(100)}`)).status).toBe(404);
  });

  it('*.localhost is refused as loopback, like 127.0.0.1, when private hosts are not allowed', async () => {
    const strict = await startQuarry({ QUARRY_ALLOW_PRIVATE_HOSTS: '' });
    try {
      for (const url of ['http://a.localhost/', 'http://127.0.0.1/']) {
        const response = await fetch(`${strict.url}/v1/scrape`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url }),
        });
        const body = (await response.json()) as { error: string };
        expect(response.status, url).toBe(403);
        expect(body.error).toMatch(/Refused to connect to (a\.localhost: it resolves to 127\.0\.0\.1,|127\.0\.0\.1: 127\.0\.0\.1 is) a loopback address/);
      }
    } finally {
      await strict.close();
    }
  });

  it.each([
    ['v1', 'crawl', 'http://10.0.0.1/'],
    ['v2', 'crawl', 'http://a.localhost/docs/'],
    ['v1', 'map', 'http://192.168.1.1/'],
    ['v2', 'map', 'http://[::1]/'],
  ])('%s /%s of a private address the operator did not allow is refused at submit (%s)', async (version, endpoint, url) => {
    const strict = await startQuarry({ QUARRY_ALLOW_PRIVATE_HOSTS: '' });
    try {
      const response = await fetch(`${strict.url}/${version}/${endpoint}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      const body = (await response.json()) as { success: boolean; error: string; id?: string; links?: unknown };
      expect(response.status).toBe(403);
      expect(body).toMatchObject({ success: false, error: expect.stringMatching(/^Refused to connect to /) });
      expect(body.id).toBeUndefined();
      expect(body.links).toBeUndefined();
    } finally {
      await strict.close();
    }
  });

  it.each([
    ['/v1/extract', (schema: unknown) => ({ urls: ['http://example.test/'], schema }), 'schema'],
    ['/v1/scrape', (schema: unknown) => ({ url: 'http://example.test/', formats: ['json'], jsonOptions: { schema } }), 'jsonOptions.schema'],
    ['/v2/scrape', (schema: unknown) => ({ url: 'http://example.test/', formats: [{ type: 'json', schema }] }), 'formats[0].schema'],
  ] as const)('%s refuses a $ref bomb schema with a 400 naming %s', async (path, body, field) => {
    const definitions: Record<string, unknown> = { d0: { type: 'string' } };
    for (let level = 1; level <= 40; level += 1) {
      definitions[`d${level}`] = { type: 'object', properties: { a: { $ref: `#/definitions/d${level - 1}` }, b: { $ref: `#/definitions/d${level - 1}` } } };
    }
    const schema = { type: 'object', definitions, properties: { root: { $ref: '#/definitions/d40' } } };
    const answer = await send('POST', path, JSON.stringify(body(schema)));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(`\`${field}\` expands to more than`);
  });

  it('still answers /health', async () => {
    expect((await fetch(`${quarry.url}/health`)).status).toBe(200);
  });
});
