import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGzip } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { findChromium } from '@quarry/adapters';
import { startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { generate } from 'selfsigned';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage } from './support/mutable-site.js';

/**
 * Families of hostile sites, each served by this file on 127.0.0.1: slow drips, endless redirects,
 * resets mid-body, TLS failures (an untrusted certificate, a handshake with a server that does not
 * speak TLS), a gzip bomb, sitemap bombs (huge, nested, gzip), charset lies, huge cookies and
 * Set-Cookie floods, and a site on another port of the same host. Every case is answered (a clear error or a document) within its time, and the
 * server answers /health within a second afterwards and stays within a memory bound.
 */
let quarry: TestQuarry;
let site: TestServer;
/** Another server on the same host, another port: never the site's own pages in a crawl or a map. */
let otherPort: TestServer;
const otherPortRequests: Array<{ path: string; headers: IncomingMessage['headers'] }> = [];
/** An HTTPS server with a self-signed certificate. */
let untrusted: HttpsServer;
let untrustedUrl: string;
const hasBrowser = findChromium(process.env.QUARRY_CHROMIUM_PATH) !== undefined || process.env.CI === 'true';
const timers = new Set<NodeJS.Timeout>();

const html = (response: ServerResponse, body: string, headers: Record<string, string | string[]> = {}) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(body);
};

/** `prefix` then `size` bytes of `fill`, gzipped a megabyte at a time (the bomb is never whole in memory). */
async function gzipBombOf(prefix: string, size: number, fill: number): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gzip.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve) => gzip.on('end', resolve));
  const chunk = Buffer.alloc(1024 * 1024, fill);
  gzip.write(prefix);
  for (let written = 0; written < size; written += chunk.length) {
    if (!gzip.write(chunk)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(parts);
}

/** 128 MB of zeros, gzipped (about 125 KB on the wire): past the 50 MB body limit. */
let gzipBomb: Buffer;
/** A sitemap that expands to 256 MB: one loc, then spaces. */
let sitemapGzipBomb: Buffer;
/** A sitemap of 200,000 URLs, and the same gzipped; a nested index that points at itself and 1,000 children. */
const hugeSitemap = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 200_000 }, (_, index) => `<url><loc>SITE/page-${index}</loc></url>`).join('')}</urlset>`;

function route(request: IncomingMessage, response: ServerResponse, url: URL): void {
  const base = site.url;
  const path = url.pathname;
  if (path === '/drip') {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write('<html><body><p>');
    const timer = setInterval(() => response.write('x'), 300);
    timers.add(timer);
    response.on('close', () => clearInterval(timer));
    return;
  }
  if (path.startsWith('/loop/')) {
    const next = Number(path.slice(6)) + 1;
    response.writeHead(302, { location: `/loop/${next}` });
    response.end();
    return;
  }
  if (path === '/reset') {
    response.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
    response.write('<html><body><p>half a page');
    setTimeout(() => request.socket.destroy(), 50);
    return;
  }
  if (path === '/links-reset') {
    html(response, articlePage('Links to a reset', ['A page linking to one that resets.'], { links: [`${base}/reset`] }));
    return;
  }
  if (path === '/to-other-port') {
    response.writeHead(302, { location: `${otherPort.url}/landing${url.search}` });
    response.end();
    return;
  }
  if (path === '/links-other-port') {
    html(
      response,
      articlePage('Links to another port', ['A page linking to another server on this host.'], { links: [`${otherPort.url}/elsewhere`, `${base}/here`] }),
    );
    return;
  }
  if (path === '/gzip-bomb') {
    response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
    response.end(gzipBomb);
    return;
  }
  if (path === '/latin1-says-utf8') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(Buffer.from('<html><head><title>Caf\xe9</title></head><body><p>Caf\xe9 cr\xe8me br\xfbl\xe9e, served daily.</p></body></html>', 'latin1'));
    return;
  }
  if (path === '/bogus-charset') {
    response.writeHead(200, { 'content-type': 'text/html; charset=x-no-such-charset' });
    response.end('<html><head><meta charset="utf-16"><title>Bogus</title></head><body><p>Plain words under a bogus charset.</p></body></html>');
    return;
  }
  if (path === '/cookie-flood') {
    html(response, articlePage('Cookies', ['Many cookies.']), { 'set-cookie': Array.from({ length: 5_000 }, (_, index) => `c${index}=${'v'.repeat(20)}`) });
    return;
  }
  if (path === '/huge-cookie') {
    html(response, articlePage('Cookie', ['One huge cookie.']), { 'set-cookie': `big=${'v'.repeat(1024 * 1024)}` });
    return;
  }
  // Sitemap bombs, each under its own folder (a crawl of /huge/ reads /huge/sitemap.xml via robots.txt).
  if (path === '/robots.txt') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(
      ['Sitemap: /huge/sitemap.xml', 'Sitemap: /nested/sitemap.xml', 'Sitemap: /bomb/sitemap.xml.gz'].map((line) => line.replace('/', `${base}/`)).join('\n'),
    );
    return;
  }
  if (path === '/huge/sitemap.xml') {
    response.writeHead(200, { 'content-type': 'application/xml' });
    response.end(hugeSitemap.replaceAll('SITE', `${base}/huge`));
    return;
  }
  if (path.startsWith('/nested/sitemap')) {
    const children = Array.from({ length: 1_000 }, (_, index) => `<sitemap><loc>${base}/nested/sitemap-${index}-${path.length}.xml</loc></sitemap>`).join('');
    response.writeHead(200, { 'content-type': 'application/xml' });
    response.end(
      `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/nested/sitemap.xml</loc></sitemap>${children}</sitemapindex>`,
    );
    return;
  }
  if (path === '/bomb/sitemap.xml.gz') {
    response.writeHead(200, { 'content-type': 'application/gzip' });
    response.end(sitemapGzipBomb);
    return;
  }
  html(response, articlePage(`Page ${path}`, [`The page at ${path}.`], { links: [`${path.replace(/\/[^/]*$/, '')}/next`] }));
}

beforeAll(async () => {
  gzipBomb = await gzipBombOf('<html><body>', 128 * 1024 * 1024, 0);
  sitemapGzipBomb = await gzipBombOf(
    '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>SITE/</loc></url>',
    256 * 1024 * 1024,
    0x20,
  );
  site = await startTestServer(route);
  otherPort = await startTestServer((request, response, url) => {
    otherPortRequests.push({ path: url.pathname, headers: request.headers });
    html(response, articlePage('Another server', [`The other server at ${url.pathname}.`]));
  });
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as Parameters<typeof generate>[1]);
  untrusted = createHttpsServer({ key: pems.private, cert: pems.cert }, (_request, response) =>
    html(response, articlePage('Untrusted', ['Behind a self-signed certificate.'])),
  );
  await new Promise<void>((resolve) => untrusted.listen(0, '127.0.0.1', resolve));
  untrustedUrl = `https://127.0.0.1:${(untrusted.address() as { port: number }).port}`;
  quarry = await startQuarry({ QUARRY_TRANSFORM_DEADLINE_MS: '5000' });
}, 60_000);

afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  await quarry?.close();
  await site?.close();
  await otherPort?.close();
  await new Promise((resolve) => (untrusted ? untrusted.close(resolve) : resolve(undefined)));
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${quarry.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return {
    status: response.status,
    body: (await response.json()) as {
      success: boolean;
      error?: string;
      code?: string;
      id?: string;
      data?: { markdown?: string; metadata?: { title?: string } };
    },
  };
}

/** The server still answers /health within a second and this process stays within a memory bound. */
async function expectHealthy() {
  const started = performance.now();
  const response = await fetch(`${quarry.url}/health`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(1_000);
  expect(process.memoryUsage().rss).toBeLessThan(1_500 * 1024 * 1024);
}

describe('hostile sites, single scrapes', () => {
  it('a slow drip that never ends times out at the scrape timeout', async () => {
    const started = performance.now();
    const { status, body } = await post('/v1/scrape', { url: `${site.url}/drip`, timeout: 3_000 });
    expect(status).toBe(408);
    expect(body.success).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
    await expectHealthy();
  }, 20_000);

  it('endless redirects stop with an error naming the redirects', async () => {
    const { status, body } = await post('/v1/scrape', { url: `${site.url}/loop/0` });
    expect(status).toBe(422);
    expect(body.error).toMatch(/redirect/i);
    await expectHealthy();
  }, 20_000);

  it("a connection reset mid-body is the target's error: 422 SCRAPE_SITE_ERROR naming the host", async () => {
    // The browser engine tries too (some sites reset clients that are not browsers): time for a cold start.
    const { status, body } = await post('/v1/scrape', { url: `${site.url}/reset`, timeout: 30_000 });
    expect(status, JSON.stringify(body)).toBe(422);
    expect(body).toMatchObject({ success: false, code: 'SCRAPE_SITE_ERROR' });
    expect(body.error).toContain(new URL(site.url).host);
    expect(body.error).toMatch(/reset/);
    await expectHealthy();
  }, 60_000);

  it.skipIf(!hasBrowser)(
    "a connection reset mid-body through the browser fails at once as the target's error, not a timeout",
    async () => {
      // A long timeout: Chromium never finishes a document cut short, so waiting for it would be a 408.
      const { status, body } = await post('/v1/scrape', { url: `${site.url}/reset`, waitFor: 50, timeout: 60_000 });
      expect(status, JSON.stringify(body)).toBe(422);
      expect(body).toMatchObject({ success: false, code: 'SCRAPE_SITE_ERROR' });
      expect(body.error).toContain(new URL(site.url).host);
      await expectHealthy();
    },
    90_000,
  );

  it.each([
    ['an untrusted (self-signed) certificate', () => `${untrustedUrl}/`, {}],
    ['a handshake with a server that does not speak TLS', () => `${site.url.replace('http:', 'https:')}/`, {}],
    ['an untrusted certificate, through the browser', () => `${untrustedUrl}/`, { waitFor: 50 }],
    ['a handshake with a server that does not speak TLS, through the browser', () => `${site.url.replace('http:', 'https:')}/`, { waitFor: 50 }],
  ])(
    "%s is the target's error: 422 SCRAPE_SSL_ERROR naming the host",
    async (name, url, options) => {
      if (name.includes('browser') && !hasBrowser) return;
      const { status, body } = await post('/v1/scrape', { url: url(), timeout: 30_000, ...options });
      expect(status, JSON.stringify(body)).toBe(422);
      expect(body).toMatchObject({ success: false, code: 'SCRAPE_SSL_ERROR' });
      expect(body.error).toContain(new URL(url()).host);
      await expectHealthy();
    },
    60_000,
  );

  it.each([
    ['fetched plainly', 'plain', {}],
    ['through the browser', 'browser', { waitFor: 50 }],
  ])(
    'credentials given for a scrape never follow a redirect to another origin (another port), %s',
    async (name, tag, options) => {
      if (name.includes('browser') && !hasBrowser) return;
      const headers = { Authorization: 'Bearer secret-token', Cookie: 'session=secret-cookie', 'Proxy-Authorization': 'Basic c2VjcmV0' };
      const { status, body } = await post('/v1/scrape', { url: `${site.url}/to-other-port?engine=${tag}`, headers, timeout: 30_000, ...options });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.data?.markdown).toContain('The other server at /landing.');
      const landing = otherPortRequests.filter((request) => request.path === '/landing');
      expect(landing.length).toBeGreaterThan(0);
      for (const request of landing) {
        expect(request.headers.authorization).toBeUndefined();
        expect(request.headers['proxy-authorization']).toBeUndefined();
        expect(request.headers.cookie ?? '').not.toContain('secret-cookie');
      }
      otherPortRequests.length = 0;
      await expectHealthy();
    },
    60_000,
  );

  it('skipTlsVerification accepts the untrusted certificate (v2 by default)', async () => {
    const { status, body } = await post('/v2/scrape', { url: `${untrustedUrl}/` });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.data?.markdown).toMatch(/self-signed certificate/);
    await expectHealthy();
  }, 30_000);

  it('a gzip bomb stops at the body limit as too large', async () => {
    const { status, body } = await post('/v1/scrape', { url: `${site.url}/gzip-bomb` });
    expect(status).toBe(422);
    expect(body).toMatchObject({ success: false, code: 'CONTENT_TOO_LARGE' });
    await expectHealthy();
  }, 30_000);

  it.each([
    ['a latin-1 body that claims utf-8', '/latin1-says-utf8', /Caf. cr.me br.l.e, served daily\./],
    ['an unknown charset and a meta that lies', '/bogus-charset', /Plain words under a bogus charset\./],
  ])('%s is converted, never a crash', async (_name, path, text) => {
    const { status, body } = await post('/v1/scrape', { url: `${site.url}${path}` });
    expect(status).toBe(200);
    expect(body.data?.markdown).toMatch(text);
    await expectHealthy();
  });

  it.each([
    ['5,000 Set-Cookie headers', '/cookie-flood'],
    ['a 1 MB cookie', '/huge-cookie'],
  ])(
    '%s: answered (a document or a clear error), never a hang',
    async (_name, path) => {
      const { status, body } = await post('/v1/scrape', { url: `${site.url}${path}`, timeout: 15_000 });
      if (status === 200) expect(body.data?.markdown).toMatch(/cookie/i);
      else expect(body.error).toContain(new URL(site.url).host);
      expect(status).not.toBe(408);
      await expectHealthy();
    },
    30_000,
  );
});

describe('hostile sites in crawls and maps', () => {
  async function crawlEnd(id: string) {
    return waitFor(
      async () => {
        const answer = (await (await fetch(`${quarry.url}/v1/crawl/${id}`)).json()) as {
          status: string;
          data: Array<{ metadata: { sourceURL?: string; url?: string } }>;
        };
        return answer.status === 'scraping' ? undefined : answer;
      },
      { timeoutMs: 60_000, message: 'crawl end' },
    );
  }

  it.each([
    ['fetched plainly', {}],
    ['through the browser', { waitFor: 50 }],
  ])(
    'a linked page that resets mid-body is a per-page error of the crawl (%s)',
    async (name, scrapeOptions) => {
      if (name.includes('browser') && !hasBrowser) return;
      const { status, body } = await post('/v1/crawl', {
        url: `${site.url}/links-reset`,
        limit: 5,
        crawlEntireDomain: true,
        ignoreSitemap: true,
        scrapeOptions: { timeout: 60_000, ...scrapeOptions },
      });
      expect(status, JSON.stringify(body)).toBe(200);
      const end = await crawlEnd(body.id!);
      expect(end.status).toBe('completed');
      const errors = (await (await fetch(`${quarry.url}/v1/crawl/${body.id}/errors`)).json()) as { errors: Array<{ url: string; error: string }> };
      expect(errors.errors).toContainEqual(expect.objectContaining({ url: `${site.url}/reset`, error: expect.stringMatching(/reset|closed the connection/) }));
      expect(errors.errors.find((error) => error.url === `${site.url}/reset`)?.error).not.toMatch(/did not finish|timed out/i);
      await expectHealthy();
    },
    120_000,
  );

  it('a crawl of a site with an untrusted certificate fails naming TLS (v1), and crawls with skipTlsVerification (v2 default)', async () => {
    const v1 = await post('/v1/crawl', { url: `${untrustedUrl}/`, limit: 2 });
    expect(v1.status, JSON.stringify(v1.body)).toBe(200);
    const failed = (await crawlEnd(v1.body.id!)) as { status: string; error?: string };
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain(`The start URL ${untrustedUrl}/`);
    expect(failed.error).toMatch(/TLS/);
    const v2 = await post('/v2/crawl', { url: `${untrustedUrl}/`, limit: 2 });
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    const crawled = await waitFor(
      async () => {
        const answer = (await (await fetch(`${quarry.url}/v2/crawl/${v2.body.id}`)).json()) as {
          status: string;
          error?: string;
          data: Array<{ markdown?: string }>;
        };
        return answer.status === 'scraping' ? undefined : answer;
      },
      { timeoutMs: 60_000, message: 'crawl end' },
    );
    expect(crawled.status, JSON.stringify(crawled.error)).toBe('completed');
    expect(crawled.data[0]?.markdown).toMatch(/self-signed certificate/);
    await expectHealthy();
  }, 120_000);

  it('another port of the same host is another site: the map and the crawl keep to their own port', async () => {
    const map = (await (
      await fetch(`${quarry.url}/v1/map`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${site.url}/links-other-port`, filterByPath: false, ignoreSitemap: true }),
      })
    ).json()) as { success: boolean; links: string[] };
    expect(map.success).toBe(true);
    expect(map.links).toContain(`${site.url}/here`);
    expect(map.links.filter((link) => link.startsWith(otherPort.url))).toEqual([]);
    const { body } = await post('/v1/crawl', { url: `${site.url}/links-other-port`, limit: 5, crawlEntireDomain: true, ignoreSitemap: true });
    const end = await crawlEnd(body.id!);
    expect(end.status).toBe('completed');
    const crawled = end.data.map((page) => page.metadata.sourceURL ?? page.metadata.url ?? '');
    expect(crawled).toContain(`${site.url}/here`);
    expect(crawled.filter((url) => url.startsWith(otherPort.url))).toEqual([]);
    await expectHealthy();
  }, 120_000);

  it.each([
    ['a sitemap of 200,000 URLs', '/huge/'],
    ['a sitemap index nested into itself, 1,000 children each', '/nested/'],
    ['a gzipped sitemap that expands to 256 MB', '/bomb/'],
  ])(
    '%s: the crawl ends within its limit and the map answers',
    async (_name, folder) => {
      const { status, body } = await post('/v1/crawl', { url: `${site.url}${folder}`, limit: 5 });
      expect(status).toBe(200);
      const end = await waitFor(
        async () => {
          const answer = (await (await fetch(`${quarry.url}/v1/crawl/${body.id}`)).json()) as { status: string; data: unknown[] };
          return answer.status === 'scraping' ? undefined : answer;
        },
        { timeoutMs: 60_000, message: 'crawl end' },
      );
      expect(end.status).toBe('completed');
      expect(end.data.length).toBeGreaterThan(0);
      expect(end.data.length).toBeLessThanOrEqual(5);
      const map = await post('/v1/map', { url: `${site.url}${folder}`, limit: 100, timeout: 20_000 });
      expect(map.status).toBe(200);
      await expectHealthy();
    },
    120_000,
  );
});
