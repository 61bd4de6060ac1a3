/**
 * The SSRF guard as the fetcher applies it: every refused fetch throws TargetError('ssrf') and
 * never opens a connection to the target, on every socket path got-scraping has (HTTP/1.1,
 * HTTPS/1.1, HTTP/2 with its ALPN probe), on every redirect hop, and without DNS rebinding.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchRequest } from '@quarry/core';
import { GotFetcher } from '../src/index.js';
import { failureOf, selfSignedCertificate, startHttp, startHttp2, startHttps, tableResolver, textOf, type Handler, type LocalServer } from './local-servers.js';

const ok: Handler = (request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain', 'x-http-version': request.httpVersion });
  response.end(`ok ${request.url}`);
};

/** `/redirect?to=<url>` answers 302 to that URL. */
const redirector: Handler = (request, response) => {
  const to = new URL(request.url ?? '/', 'http://x').searchParams.get('to');
  if (!to) return ok(request, response);
  response.writeHead(302, { location: to });
  response.end();
};

const howToAllow = "allow it with `new GotFetcher({ allowPrivateHosts: [...] })` (host names, IPs or CIDRs, or '*')";

describe('SSRF guard in GotFetcher', () => {
  let plain: LocalServer;
  let plainV6: LocalServer;
  let tls1: LocalServer;
  let tls2: LocalServer;
  const fetchers: GotFetcher[] = [];
  const make = (options: ConstructorParameters<typeof GotFetcher>[0] = {}) => {
    const fetcher = new GotFetcher(options);
    fetchers.push(fetcher);
    return fetcher;
  };
  const get = (fetcher: GotFetcher, url: string, options: Partial<FetchRequest> = {}) => fetcher.fetch({ url: new URL(url), timeoutMs: 10_000, ...options });
  /** Connections accepted by all local servers so far. */
  const connections = () => plain.connections() + plainV6.connections() + tls1.connections() + tls2.connections();

  beforeAll(async () => {
    const certificate = await selfSignedCertificate();
    [plain, plainV6, tls1, tls2] = await Promise.all([startHttp(redirector), startHttp(ok, '::1'), startHttps(ok, certificate), startHttp2(ok, certificate)]);
  });

  afterAll(async () => {
    await Promise.all(fetchers.map((fetcher) => fetcher.close()));
    await Promise.all([plain?.close(), plainV6?.close(), tls1?.close(), tls2?.close()]);
  });

  describe('with the default guard', () => {
    const guarded = make();

    it.each([
      ['http://127.0.0.1:{plain}/', '127.0.0.1:{plain}: 127.0.0.1 is a loopback address'],
      ['http://localhost:{plain}/', 'localhost: it resolves to 127.0.0.1, a loopback address'],
      ['http://127.1:{plain}/', '127.0.0.1:{plain}: 127.0.0.1 is a loopback address'],
      ['http://2130706433:{plain}/', '127.0.0.1:{plain}: 127.0.0.1 is a loopback address'],
      ['http://0x7f.0.0.1:{plain}/', '127.0.0.1:{plain}: 127.0.0.1 is a loopback address'],
      ['http://017700000001:{plain}/', '127.0.0.1:{plain}: 127.0.0.1 is a loopback address'],
      ['http://[::1]:{v6}/', '[::1]:{v6}: ::1 is a loopback address'],
      ['http://[::ffff:127.0.0.1]:{plain}/', '[::ffff:7f00:1]:{plain}: ::ffff:7f00:1 (IPv4-mapped 127.0.0.1) is a loopback address'],
      ['https://localhost:{tls1}/', 'localhost: it resolves to 127.0.0.1, a loopback address'],
      ['https://localhost:{tls2}/', 'localhost: it resolves to 127.0.0.1, a loopback address'],
      ['https://127.0.0.1:{tls2}/', '127.0.0.1:{tls2}: 127.0.0.1 is a loopback address'],
    ])('refuses %s without connecting', async (template, reason) => {
      const fill = (text: string) =>
        text
          .replaceAll('{plain}', String(plain.port))
          .replaceAll('{v6}', String(plainV6.port))
          .replaceAll('{tls1}', String(tls1.port))
          .replaceAll('{tls2}', String(tls2.port));
      const before = connections();
      const error = await failureOf(get(guarded, fill(template), { skipTlsVerification: true }));
      expect(error).toMatchObject({ name: 'TargetError', code: 'target_failed', kind: 'ssrf' });
      expect(error.message).toBe(`Refused to connect to ${fill(reason)}; ${howToAllow}`);
      expect(connections()).toBe(before);
    });

    it.each(['file:///etc/passwd', 'ftp://example.com/file.txt', 'data:text/html,<h1>hi</h1>'])('refuses the %s scheme', async (url) => {
      const error = await failureOf(get(guarded, url));
      expect(error).toMatchObject({ kind: 'ssrf', message: expect.stringContaining('only http: and https: URLs can be fetched') });
    });

    it.each(['http://a.localhost/', 'http://localhost./', 'http://deep.name.LOCALHOST:8080/x'])(
      'refuses %s as loopback (RFC 6761) without asking DNS',
      async (url) => {
        const fetcher = make({ resolve: tableResolver({}) }); // a DNS lookup would fail with ENOTFOUND
        await expect(get(fetcher, url)).rejects.toMatchObject({
          kind: 'ssrf',
          message: expect.stringContaining('it resolves to 127.0.0.1, a loopback address'),
        });
      },
    );

    it('reaches *.localhost when loopback is allowed', async () => {
      const fetcher = make({ allowPrivateHosts: ['127.0.0.1'], resolve: tableResolver({}) });
      const response = await get(fetcher, `http://site.localhost:${plain.port}/hello`);
      expect(response.status).toBe(200);
    });

    it('refuses a name that resolves to a private address (checked at connect time)', async () => {
      const fetcher = make({ resolve: tableResolver({ 'metadata.test': ['169.254.169.254'] }) });
      await expect(get(fetcher, 'http://metadata.test/latest/meta-data/')).rejects.toMatchObject({
        kind: 'ssrf',
        details: { host: 'metadata.test', address: '169.254.169.254', addressKind: 'link-local' },
      });
    });
  });

  describe('redirect hops', () => {
    const allows127001 = make({ allowPrivateHosts: ['127.0.0.1'], resolve: tableResolver({ 'internal.test': ['10.0.0.5'] }) });

    it.each([
      ['http://127.0.0.2:{plain}/', '127.0.0.2:{plain}: 127.0.0.2 is a loopback address'],
      ['http://[::1]:{v6}/', '[::1]:{v6}: ::1 is a loopback address'],
      ['http://internal.test:{plain}/', 'internal.test: it resolves to 10.0.0.5, a private address'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.169.254: 169.254.169.254 is a link-local address'],
    ])('refuses a redirect from an allowed host to %s', async (template, reason) => {
      const fill = (text: string) => text.replaceAll('{plain}', String(plain.port)).replaceAll('{v6}', String(plainV6.port));
      const before = plainV6.connections();
      const error = await failureOf(get(allows127001, `${plain.origin}/redirect?to=${encodeURIComponent(fill(template))}`));
      expect(error).toMatchObject({ kind: 'ssrf', message: `Refused to connect to ${fill(reason)}; ${howToAllow}` });
      expect(plainV6.connections()).toBe(before);
    });

    it('refuses a redirect to a file: URL', async () => {
      const error = await failureOf(get(allows127001, `${plain.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`));
      expect(error).toMatchObject({ kind: 'ssrf', message: expect.stringContaining('only http: and https:') });
    });

    it('follows a redirect that stays on allowed hosts', async () => {
      const response = await get(allows127001, `${plain.origin}/redirect?to=${encodeURIComponent(`${plain.origin}/final`)}`);
      expect(textOf(response.body)).toBe('ok /final');
    });
  });

  describe('every socket path resolves through the guard (pinned addresses, no rebinding)', () => {
    // The system resolver does not know `site.test`: a connection made with any other lookup fails.
    it.each([
      ['http', () => `http://site.test:${plain.port}/path`, '1.1'],
      ['https over HTTP/1.1', () => `https://site.test:${tls1.port}/path`, '1.1'],
      ['https over HTTP/2 (ALPN probe, http2-wrapper agent)', () => `https://site.test:${tls2.port}/path`, '2.0'],
    ])('%s', async (_name, url, httpVersion) => {
      const resolve = tableResolver({ 'site.test': ['127.0.0.1'] });
      const fetcher = make({ allowPrivateHosts: ['127.0.0.1'], resolve });
      const response = await get(fetcher, url(), { skipTlsVerification: true });
      expect(textOf(response.body)).toBe('ok /path');
      expect(response.headers.get('x-http-version')).toBe(httpVersion);
      expect(resolve.calls.length).toBeGreaterThan(0);
      expect(new Set(resolve.calls)).toEqual(new Set(['site.test']));
    });

    it('falls back to HTTP/1.1 when skipTlsVerification meets a certificate that does not name the host', async () => {
      const resolve = tableResolver({ 'unnamed.test': ['127.0.0.1'] });
      const fetcher = make({ allowPrivateHosts: ['127.0.0.1'], resolve });
      const response = await get(fetcher, `https://unnamed.test:${tls2.port}/fallback`, { skipTlsVerification: true });
      expect(textOf(response.body)).toBe('ok /fallback');
      expect(response.headers.get('x-http-version')).toBe('1.1');
      expect(new Set(resolve.calls)).toEqual(new Set(['unnamed.test']));
      await expect(get(fetcher, `https://unnamed.test:${tls2.port}/`)).rejects.toMatchObject({ kind: 'tls' });
    });

    it('connects to the address it checked: a name that rebinds after the check is not re-resolved', async () => {
      // First answer allowed (127.0.0.1); every later answer refused (127.0.0.2, where nothing listens).
      const resolve = tableResolver({ 'rebind.test': (call) => (call === 1 ? ['127.0.0.1'] : ['127.0.0.2']) });
      const fetcher = make({ allowPrivateHosts: ['127.0.0.1'], resolve });
      const response = await get(fetcher, `http://rebind.test:${plain.port}/once`);
      expect(textOf(response.body)).toBe('ok /once');
      expect(resolve.calls).toEqual(['rebind.test']);
    });

    it('refuses when the only answer is private, whatever later answers would be', async () => {
      const resolve = tableResolver({ 'rebind.test': (call) => (call === 1 ? ['10.9.9.9'] : ['127.0.0.1']) });
      const fetcher = make({ allowPrivateHosts: ['127.0.0.1'], resolve });
      const before = connections();
      await expect(get(fetcher, `http://rebind.test:${plain.port}/`)).rejects.toMatchObject({ kind: 'ssrf' });
      expect(connections()).toBe(before);
    });

    it('uses the allowed addresses of a name that also has refused ones', async () => {
      const resolve = tableResolver({ 'mixed.test': ['10.9.9.9', '127.0.0.1'] });
      const fetcher = make({ allowPrivateHosts: ['127.0.0.1'], resolve });
      await expect(get(fetcher, `http://mixed.test:${plain.port}/mixed`)).resolves.toMatchObject({ status: 200 });
    });
  });

  describe('allowPrivateHosts', () => {
    it('accepts an IPv4 CIDR for literals and for names that resolve into it', async () => {
      const fetcher = make({ allowPrivateHosts: ['127.0.0.0/8'] });
      await expect(get(fetcher, `http://127.0.0.1:${plain.port}/`)).resolves.toMatchObject({ status: 200 });
      await expect(get(fetcher, `http://localhost:${plain.port}/`)).resolves.toMatchObject({ status: 200 });
      await expect(get(fetcher, `http://[::1]:${plainV6.port}/`)).rejects.toMatchObject({ kind: 'ssrf' });
    });

    it('accepts an IPv6 CIDR', async () => {
      const fetcher = make({ allowPrivateHosts: ['::1/128'] });
      await expect(get(fetcher, `http://[::1]:${plainV6.port}/v6`)).resolves.toMatchObject({ status: 200 });
      await expect(get(fetcher, `http://127.0.0.1:${plain.port}/`)).rejects.toMatchObject({ kind: 'ssrf' });
    });

    it('accepts a host name, which does not open its address to other names or literals', async () => {
      const fetcher = make({ allowPrivateHosts: ['localhost'] });
      await expect(get(fetcher, `http://localhost:${plain.port}/`)).resolves.toMatchObject({ status: 200 });
      await expect(get(fetcher, `http://127.0.0.1:${plain.port}/`)).rejects.toMatchObject({ kind: 'ssrf' });
    });

    it('* allows everything', async () => {
      const fetcher = make({ allowPrivateHosts: ['*'] });
      for (const url of [
        `http://127.0.0.1:${plain.port}/`,
        `http://localhost:${plain.port}/`,
        `http://[::1]:${plainV6.port}/`,
        `http://127.1:${plain.port}/`,
      ]) {
        await expect(get(fetcher, url)).resolves.toMatchObject({ status: 200 });
      }
    });

    it('rejects an invalid entry when the fetcher is built', () => {
      expect(() => new GotFetcher({ allowPrivateHosts: ['10.0.0.0/40'] })).toThrow(/allowPrivateHosts entry "10.0.0.0\/40"/);
    });
  });
});
