import { DepthBoundParser } from '../html/bounded-parser.js';
import { TargetError } from '../errors.js';

export interface SitemapEntry {
  url: string;
  /** `<lastmod>` as written (W3C datetime); for feeds, the item date as ISO 8601 when it parses. */
  lastmod?: string;
}

export interface ParsedSitemap {
  /** Root of the document: a sitemap `urlset`, a `sitemapindex`, a plain-text list, or an RSS/Atom feed. */
  kind: 'urlset' | 'sitemapindex' | 'text' | 'feed';
  /** Page URLs, deduplicated, in document order. */
  urls: SitemapEntry[];
  /** Nested sitemap URLs to fetch next, deduplicated, in document order. */
  sitemaps: string[];
}

/** The sitemap protocol's limit: at most 50 000 URLs (or sitemaps) per document; the rest is ignored. */
export const maxSitemapEntries = 50_000;
/** The sitemap protocol's limit on an uncompressed document: 50 MiB. */
export const maxSitemapBytes = 50 * 1024 * 1024;

/** Where a document's links go: all to `sitemaps`, all to `urls`, or by the `.xml` rule. */
type Destination = 'sitemap' | 'page' | 'by-extension';

interface XmlFormat {
  kind: ParsedSitemap['kind'];
  /** Element that holds one entry. */
  entry: string;
  /** Child of the entry whose text (or `href`, in Atom) is the URL. */
  link: string;
  /** Child of the entry holding its date. */
  date: string;
  destination: Destination;
}

/** XML formats by root element (local name, lowercase). */
const xmlFormats: Record<string, XmlFormat> = {
  urlset: { kind: 'urlset', entry: 'url', link: 'loc', date: 'lastmod', destination: 'by-extension' },
  sitemapindex: { kind: 'sitemapindex', entry: 'sitemap', link: 'loc', date: 'lastmod', destination: 'sitemap' },
  rss: { kind: 'feed', entry: 'item', link: 'link', date: 'pubdate', destination: 'page' },
  rdf: { kind: 'feed', entry: 'item', link: 'link', date: 'date', destination: 'page' },
  feed: { kind: 'feed', entry: 'entry', link: 'link', date: 'updated', destination: 'page' },
};

/** Parser input chunk: parsing stops between chunks once the caps are reached. */
const chunkSize = 64 * 1024;

/**
 * Parses a sitemap document: XML `urlset` (a `<url><loc>` whose path ends in `.xml` or `.xml.gz` is
 * a nested sitemap, as in Firecrawl), `sitemapindex`, RSS/Atom feeds, or a plain-text list (one
 * http(s) URL per line; used when the body does not start with `<`). Only `<loc>`/`<lastmod>`
 * children of the entry are read, so image/video/news extension tags are ignored. Lenient: a
 * malformed document yields the locations it can. The charset comes from `contentType`, else the
 * XML declaration, else UTF-8. Pass gzipped bytes through {@link gunzipIfNeeded} first.
 * @throws TargetError kind `parse` when the XML root is not one of the formats above (e.g. HTML).
 */
export function parseSitemap(body: Uint8Array | string, contentType?: string | null): ParsedSitemap {
  const text = typeof body === 'string' ? body : decode(body, contentType);
  const start = text.replace(/^\ufeff/, '').trimStart();
  return start.startsWith('<') ? parseXml(start) : parseText(start);
}

function parseText(text: string): ParsedSitemap {
  const collector = new Collector('by-extension');
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (collector.isFull()) break;
    collector.add(line.trim(), undefined);
  }
  return { kind: 'text', ...collector.result() };
}

function parseXml(text: string): ParsedSitemap {
  let format: XmlFormat | undefined;
  let root: string | undefined;
  let collector: Collector | undefined;
  const stack: string[] = [];
  let entry: { url?: string; date?: string } | undefined;
  let field: { name: string; text: string; depth: number } | undefined;

  const flush = (current: XmlFormat, { url, date }: { url?: string; date?: string }): void => {
    if (url !== undefined) collector?.add(url, date && (current.kind === 'feed' ? isoDate(date) : date));
  };

  const parser = new DepthBoundParser(
    {
      onopentag(rawName, attributes) {
        const name = localName(rawName);
        if (root === undefined) {
          root = name;
          format = xmlFormats[name];
          if (format) collector = new Collector(format.destination);
        }
        const parent = stack.at(-1);
        stack.push(name);
        if (!format) return;
        if (name === format.entry) {
          // An entry left unclosed before the next one opens still counts.
          if (entry) flush(format, entry);
          entry = {};
        } else if (entry && parent === format.entry && (name === format.link || name === format.date) && !field) {
          const href = attributes.href;
          const rel = attributes.rel;
          if (name === format.link && href !== undefined) {
            if ((rel === undefined || rel === 'alternate') && entry.url === undefined) entry.url = href.trim();
          } else {
            field = { name, text: '', depth: stack.length };
          }
        }
      },
      ontext(data) {
        if (field) field.text += data;
      },
      onclosetag(rawName) {
        const name = localName(rawName);
        if (field && stack.length === field.depth) {
          const value = field.text.trim();
          if (entry && format && value !== '') {
            if (field.name === format.link) entry.url ??= value;
            else entry.date ??= value;
          }
          field = undefined;
        }
        if (format && name === format.entry && entry) {
          flush(format, entry);
          entry = undefined;
        }
        stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );

  for (let offset = 0; offset < text.length && !collector?.isFull(); offset += chunkSize) {
    parser.write(text.slice(offset, offset + chunkSize));
    if (root !== undefined && !format) break;
  }
  parser.end();

  if (!format || !collector) {
    const what = root === undefined ? 'no root element' : `root element <${root}>`;
    throw new TargetError('parse', `Sitemap could not be parsed: expected <urlset>, <sitemapindex>, an RSS/Atom feed or a text list; got ${what}`);
  }
  return { kind: format.kind, ...collector.result() };
}

/** Collects URLs up to the protocol cap, deduplicated, sorted into pages and nested sitemaps. */
class Collector {
  private readonly urls = new Map<string, SitemapEntry>();
  private readonly sitemaps = new Set<string>();

  constructor(private readonly destination: Destination) {}

  add(value: string, lastmod: string | undefined): void {
    const url = httpUrl(value);
    if (!url) return;
    const isSitemap = this.destination === 'sitemap' || (this.destination === 'by-extension' && /\.xml(\.gz)?$/i.test(url.pathname));
    if (isSitemap) {
      if (this.sitemaps.size < maxSitemapEntries) this.sitemaps.add(url.href);
    } else if (this.urls.size < maxSitemapEntries && !this.urls.has(url.href)) {
      this.urls.set(url.href, lastmod === undefined ? { url: url.href } : { url: url.href, lastmod });
    }
  }

  isFull(): boolean {
    return this.urls.size >= maxSitemapEntries && this.sitemaps.size >= maxSitemapEntries;
  }

  result(): Pick<ParsedSitemap, 'urls' | 'sitemaps'> {
    return { urls: [...this.urls.values()], sitemaps: [...this.sitemaps] };
  }
}

function httpUrl(value: string): URL | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1).toLowerCase();
}

function isoDate(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

/** Bytes to text with the charset of the content type, else of the XML declaration, else UTF-8. */
function decode(bytes: Uint8Array, contentType: string | null | undefined): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  const label = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ?? /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)/.exec(head)?.[1];
  try {
    return new TextDecoder(label ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * Gunzips bytes that start with the gzip magic (1f 8b) with the web-standard DecompressionStream;
 * other bytes are returned as they are.
 * @throws TargetError kind `too-large` past {@link maxSitemapBytes} of output, `parse` for corrupt gzip.
 */
export async function gunzipIfNeeded(bytes: Uint8Array, maxBytes: number = maxSitemapBytes): Promise<Uint8Array> {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (let result = await reader.read(); !result.done; result = await reader.read()) {
      total += result.value.byteLength;
      if (total > maxBytes) {
        await reader.cancel();
        throw new TargetError('too-large', `Gzipped sitemap expands past ${maxBytes} bytes`, { details: { maxBytes } });
      }
      chunks.push(result.value);
    }
  } catch (error) {
    if (error instanceof TargetError) throw error;
    throw new TargetError('parse', `Gzipped sitemap could not be decompressed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const output = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    output.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return output;
}
