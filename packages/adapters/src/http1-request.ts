/**
 * One HTTP/1.1 GET sent with node:http/https directly, with what got + got-scraping would have
 * put on the wire for it: the same generated browser headers (merged the same way, then cased
 * and ordered as its header agent does: browser-identity.ts), the same TLS settings for that
 * browser, the lenient parser, and the same decompression (gzip, deflate with or without zlib header, br; zstd where
 * node has it, as got does). GotFetcher sends its HTTP/1.1 hops without a proxy through here:
 * got's option merging, hook chain and three stream layers cost ~0.6 ms of main-thread CPU per
 * fetch (benchmarks/crawl-real-site/README.md, sixth pass). HTTP/2 and proxied hops stay on got.
 */
import type http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { nodeHttp } from './node-http.js';
import https from 'node:https';
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type { LookupFunction } from 'node:net';
import type { BrowserHeaders, BrowserTls } from './browser-identity.js';

/**
 * got-scraping's `mergeHeaders`: generated headers, then the request's, a name given twice in any
 * case keeping the request's spelling and value, in the generated order. Then got's own default:
 * unless the merged headers hold `accept-encoding` spelled in lower case (the only spelling got
 * looks up), Accept-Encoding is what this node decodes (`acceptedEncodings`), not the generated
 * value: so `zstd` is offered on a node that decodes it (22.15+), as got-scraping does there.
 */
export function mergeHeaders(generated: BrowserHeaders, overrides: Readonly<Record<string, string>>): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  for (const name in generated) merged.set(name.toLowerCase(), [name, generated[name] as string]);
  for (const name in overrides) merged.set(name.toLowerCase(), [name, overrides[name] as string]);
  const encoding = merged.get('accept-encoding');
  if (encoding?.[0] !== 'accept-encoding') merged.set('accept-encoding', [encoding?.[0] ?? 'accept-encoding', acceptedEncodings]);
  return Object.fromEntries(merged.values());
}

const zlibOptions = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** Inflate that picks zlib-wrapped or raw deflate from the first byte (servers send both as `deflate`). */
class AnyInflate extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | undefined;
  private innerEnded: Promise<void> | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.inner) {
      const inner = ((chunk[0] ?? 0) & 15) === 8 ? zlib.createInflate() : zlib.createInflateRaw();
      inner.on('data', (data: Buffer) => this.push(data));
      this.innerEnded = new Promise((resolve, reject) => {
        inner.once('end', resolve);
        inner.once('error', reject);
      });
      this.innerEnded.catch((error: Error) => this.destroy(error));
      this.inner = inner;
    }
    this.inner.write(chunk, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    if (!this.inner) {
      callback();
      return;
    }
    this.inner.end();
    this.innerEnded?.then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.inner?.destroy();
    callback(error);
  }
}

const zstd = (zlib as unknown as { createZstdDecompress?: () => Transform }).createZstdDecompress;

/** got's Accept-Encoding: the encodings this node decodes (brotli always on node 20+; zstd where zlib has it). */
const acceptedEncodings = ['gzip', 'deflate', 'br', ...(zstd ? ['zstd'] : [])].join(', ');

function decompressorFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(zlibOptions);
    case 'deflate':
    case 'x-deflate':
      return new AnyInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return zstd?.();
    default:
      return undefined;
  }
}

/**
 * The response body as a stream, decompressed per Content-Encoding (the header is then removed,
 * as got-scraping does). Destroying the returned stream destroys the response.
 */
export function decodedBody(response: IncomingMessage): Readable {
  const encoding = response.headers['content-encoding']?.toLowerCase();
  const decompressor = encoding ? decompressorFor(encoding) : undefined;
  if (!decompressor) return response;
  delete response.headers['content-encoding'];
  return pipeline(response, decompressor, () => undefined);
}

export interface Http1Request {
  url: URL;
  /** By name, or the head's final lines from `wireHeaders` (browser-identity.ts; written as given, Host included). */
  headers: Record<string, string> | string[];
  signal: AbortSignal;
  lookup: LookupFunction;
  agent: http.Agent | https.Agent;
  /** https only: the identity's TLS settings and certificate checking. */
  tls?: BrowserTls & { rejectUnauthorized: boolean };
}

export interface Http1Response {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The (decompressed) body. */
  body: Readable;
}

/** Sends the GET and resolves with the response head; rejects with node's error (codes kept). */
export function requestHttp1(request: Http1Request): Promise<Http1Response> {
  const { url } = request;
  const options: https.RequestOptions = {
    method: 'GET',
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    headers: request.headers,
    agent: request.agent,
    lookup: request.lookup,
    signal: request.signal,
    insecureHTTPParser: true,
    ...(!Array.isArray(request.headers) && (url.username || url.password)
      ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` }
      : {}),
    ...(request.tls ? { ...request.tls.https, ...request.tls.socket, rejectUnauthorized: request.tls.rejectUnauthorized } : {}),
  };
  return new Promise((resolve, reject) => {
    const sent = (url.protocol === 'https:' ? https : nodeHttp).request(options, (response) => {
      resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: decodedBody(response) });
    });
    // Kept after the first error: a request may emit more than one (an unheard one would crash).
    sent.on('error', reject);
    sent.end();
  });
}
