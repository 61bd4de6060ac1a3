/**
 * What the HTTP/1.1 direct path needs to look like got-scraping's browser, without loading
 * got-scraping at start (its bundle loads got, http2-wrapper and builds two header generators:
 * ~0.2 s of CPU; benchmarks/crawl-real-site/README.md, sixth pass).
 *
 * - Header sets come from one `HeaderGenerator` (header-generator, the library got-scraping uses),
 *   required (bundled, `dist/header-generator.cjs`) and built at the first identity, once per process.
 * - The request head is cased by `wireName` (ours) and ordered by the same generator's
 *   `orderHeaders` (its browser order lists); `wireHeaders` gives the lines node then writes.
 * - TLS settings are got-scraping's `tlsHook`, imported at the first https: hop (`loadTlsHook`), so
 *   a crawl of http: sites never imports got-scraping.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { HeaderGenerator } from 'header-generator';

/** Generated browser headers (header-generator's output, names as it spells them). */
export type BrowserHeaders = Record<string, string>;

/** What the TLS hook of got-scraping sets for a browser, computed once per identity. */
export interface BrowserTls {
  https: Record<string, unknown>;
  socket: Record<string, unknown>;
}

const require = createRequire(import.meta.url);
let generator: HeaderGenerator | undefined;

/**
 * header-generator as one bundled file beside the built module (`dist/header-generator.cjs`, see
 * tsup.config.ts: ~30-40 ms less CPU to load than its ~70 modules), or the package itself when
 * running from source.
 */
function headerGeneratorModule(): typeof import('header-generator') {
  const bundled = fileURLToPath(new URL('./header-generator.cjs', import.meta.url));
  return (existsSync(bundled) ? require(bundled) : require('header-generator')) as typeof import('header-generator');
}

/** The process's header generator, built at first use (~45-65 ms to load bundled, ~30-40 ms to build). */
export function browserHeaderGenerator(): HeaderGenerator {
  if (!generator) {
    const { HeaderGenerator: Generator } = headerGeneratorModule();
    generator = new Generator();
  }
  return generator;
}

type TlsHook = (options: { https: Record<string, unknown>; headers: BrowserHeaders; _unixOptions: Record<string, unknown> }) => void;
let tlsHook: Promise<TlsHook> | undefined;

/** got-scraping's `tlsHook`; the first call imports got-scraping (the first https: hop). */
export function loadTlsHook(): Promise<TlsHook> {
  tlsHook ??= import('got-scraping').then(({ hooks }) => hooks.tlsHook as unknown as TlsHook);
  return tlsHook;
}

/** got-scraping's TLS settings (ciphers, sigalgs, curves, versions) for the browser `headers` name. */
export function browserTlsOf(hook: TlsHook, headers: BrowserHeaders): BrowserTls {
  const options = { https: {}, headers, _unixOptions: {} };
  hook(options);
  return { https: options.https, socket: options._unixOptions };
}

/** A header name as a browser writes it over HTTP/1.1: each dash-separated part capitalized, `x-` names as given. */
export function wireName(name: string): string {
  if (name.toLowerCase().startsWith('x-')) return name;
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('-');
}

/**
 * The request head's header lines (rawHeaders format: name, value, ...) for a GET of `url` with
 * `headers`, ended without a body, as the browser would send them: node's `Host` and
 * `Authorization` (from the URL's credentials) when not given, names cased by `wireName`,
 * `Connection` and `Content-Length: 0` when not given, then the browser's order (the generator's
 * `orderHeaders`, from the user agent). Depends only on its inputs: a caller builds it once per
 * identity and header set. `undefined` with `Expect` (node writes such a head at once; the request
 * then carries `headers` by name).
 */
export function wireHeaders(url: URL, headers: Readonly<Record<string, string>>, keepAlive: boolean): string[] | undefined {
  const byName = new Map<string, [string, string]>();
  for (const name in headers) byName.set(name.toLowerCase(), [name, headers[name] as string]);
  if (byName.has('expect')) return undefined;
  // url.host is node's Host header: brackets around IPv6, the port only when not the default.
  if (!byName.get('host')?.[1]) byName.set('host', ['Host', url.host]);
  if ((url.username || url.password) && !byName.get('authorization')?.[1]) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    byName.set('authorization', ['Authorization', `Basic ${Buffer.from(credentials).toString('base64')}`]);
  }
  const cased: Record<string, string> = {};
  for (const [name, value] of byName.values()) cased[wireName(name)] = value;
  if (!byName.has('connection')) cased['Connection'] = keepAlive ? 'keep-alive' : 'close';
  if (!byName.has('content-length') && !byName.has('transfer-encoding')) {
    if (byName.has('trailer')) cased['Transfer-Encoding'] = 'chunked';
    else cased['Content-Length'] = '0';
  }
  return Object.entries(browserHeaderGenerator().orderHeaders(cased)).flat();
}
