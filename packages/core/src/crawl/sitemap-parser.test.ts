import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TargetError } from '../errors.js';
import { gunzipIfNeeded, maxSitemapEntries, parseSitemap } from './sitemap-parser.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('parseSitemap: XML', () => {
  it('reads a urlset with lastmod, whitespace, CDATA and entities; nested .xml and .xml.gz locs become sitemaps', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url>
          <loc>
            https://example.com/a
          </loc>
          <lastmod>2024-01-02</lastmod>
          <priority>0.5</priority>
        </url>
        <url><loc><![CDATA[https://example.com/b?x=1&y=2]]></loc></url>
        <url><loc>https://example.com/c?x=1&amp;y=2</loc></url>
        <url><loc>https://example.com/nested.xml</loc></url>
        <url><loc>https://example.com/nested-2.XML.gz</loc></url>
        <url><loc>https://example.com/a</loc></url>
        <url><loc>/relative</loc></url>
        <url><loc>mailto:x@example.com</loc></url>
      </urlset>`;
    expect(parseSitemap(encode(xml))).toEqual({
      kind: 'urlset',
      urls: [{ url: 'https://example.com/a', lastmod: '2024-01-02' }, { url: 'https://example.com/b?x=1&y=2' }, { url: 'https://example.com/c?x=1&y=2' }],
      sitemaps: ['https://example.com/nested.xml', 'https://example.com/nested-2.XML.gz'],
    });
  });

  it('reads prefixed elements and ignores image, video and alternate-link extension tags', () => {
    const xml = `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"
        xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"
        xmlns:xhtml="http://www.w3.org/1999/xhtml">
      <sm:url>
        <sm:loc>https://example.com/page</sm:loc>
        <image:image><image:loc>https://cdn.example.com/photo.jpg</image:loc></image:image>
        <video:video><video:content_loc>https://cdn.example.com/v.mp4</video:content_loc><video:thumbnail_loc>https://cdn.example.com/t.jpg</video:thumbnail_loc></video:video>
        <xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/page"/>
      </sm:url>
    </sm:urlset>`;
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', urls: [{ url: 'https://example.com/page' }], sitemaps: [] });
  });

  it('reads a sitemapindex: every loc is a sitemap', () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://example.com/sitemap-posts.xml</loc><lastmod>2024-01-01</lastmod></sitemap>
      <sitemap><loc>https://example.com/sitemap-pages</loc></sitemap>
    </sitemapindex>`;
    expect(parseSitemap(xml)).toEqual({
      kind: 'sitemapindex',
      urls: [],
      sitemaps: ['https://example.com/sitemap-posts.xml', 'https://example.com/sitemap-pages'],
    });
  });

  it('yields what it can from malformed XML', () => {
    const xml = `<urlset>
      <url><loc>https://example.com/1</loc></url>
      <url><loc>https://example.com/2</url>
      <url><loc>https://example.com/3 &bogus; </loc>
      <url><loc>https://example.com/4</loc></url>
      <url><loc>https://example.com/5</loc>`;
    expect(parseSitemap(xml).urls.map((entry) => entry.url)).toEqual([
      'https://example.com/1',
      'https://example.com/2',
      'https://example.com/3%20&bogus;',
      'https://example.com/4',
      'https://example.com/5',
    ]);
  });

  it('throws TargetError(parse) for an HTML page or an empty XML document', () => {
    const html = '<!DOCTYPE html><html><body><a href="https://example.com/x">x</a></body></html>';
    expect(() => parseSitemap(html)).toThrow(TargetError);
    expect(() => parseSitemap(html)).toThrow('got root element <html>');
    expect(() => parseSitemap('<?xml version="1.0"?><!-- nothing -->')).toThrow('got no root element');
  });

  it('uses the charset of the content type, else of the XML declaration', () => {
    const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (character) => character.charCodeAt(0));
    const declared = latin1('<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://example.com/caf\u00e9</loc></url></urlset>');
    expect(parseSitemap(declared).urls).toEqual([{ url: 'https://example.com/caf%C3%A9' }]);
    const undeclared = latin1('<urlset><url><loc>https://example.com/caf\u00e9</loc></url></urlset>');
    expect(parseSitemap(undeclared, 'application/xml; charset=iso-8859-1').urls).toEqual([{ url: 'https://example.com/caf%C3%A9' }]);
  });

  it('caps a document at 50 000 URLs', () => {
    const entries = Array.from({ length: maxSitemapEntries + 10 }, (_, index) => `<url><loc>https://example.com/${index}</loc></url>`);
    const parsed = parseSitemap(`<urlset>${entries.join('')}</urlset>`);
    expect(parsed.urls).toHaveLength(maxSitemapEntries);
    expect(parsed.urls.at(-1)?.url).toBe(`https://example.com/${maxSitemapEntries - 1}`);
  });
});

describe('parseSitemap: feeds', () => {
  it('reads RSS item links with pubDate as ISO lastmod', () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://example.com/</link>
      <item><title>One</title><link>https://example.com/posts/1</link><pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate></item>
      <item><title>Two</title><link><![CDATA[https://example.com/posts/2]]></link></item>
    </channel></rss>`;
    expect(parseSitemap(rss)).toEqual({
      kind: 'feed',
      urls: [{ url: 'https://example.com/posts/1', lastmod: '2024-01-02T10:00:00.000Z' }, { url: 'https://example.com/posts/2' }],
      sitemaps: [],
    });
  });

  it('reads Atom entry alternate links', () => {
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://example.com/"/>
      <entry><link rel="self" href="https://example.com/api/1"/><link href="https://example.com/posts/1"/><updated>2024-01-02T10:00:00Z</updated></entry>
      <entry><link rel="alternate" href="https://example.com/posts/2"></link></entry>
    </feed>`;
    expect(parseSitemap(atom)).toEqual({
      kind: 'feed',
      urls: [{ url: 'https://example.com/posts/1', lastmod: '2024-01-02T10:00:00.000Z' }, { url: 'https://example.com/posts/2' }],
      sitemaps: [],
    });
  });
});

describe('parseSitemap: text', () => {
  it('keeps only http(s) lines, trimmed, with .xml lines as nested sitemaps', () => {
    const text = '\ufeffhttps://example.com/a\r\n  http://example.com/b  \n# comment\nftp://example.com/c\nnot a url\n\nhttps://example.com/more.xml\n';
    expect(parseSitemap(encode(text), 'text/plain')).toEqual({
      kind: 'text',
      urls: [{ url: 'https://example.com/a' }, { url: 'http://example.com/b' }],
      sitemaps: ['https://example.com/more.xml'],
    });
  });

  it('returns an empty text sitemap for an empty body', () => {
    expect(parseSitemap('')).toEqual({ kind: 'text', urls: [], sitemaps: [] });
  });
});

describe('gunzipIfNeeded', () => {
  it('inflates a gzipped sitemap and passes other bytes through', async () => {
    const xml = '<urlset><url><loc>https://example.com/gz</loc></url></urlset>';
    const inflated = await gunzipIfNeeded(gzipSync(xml));
    expect(parseSitemap(inflated).urls).toEqual([{ url: 'https://example.com/gz' }]);
    const plain = encode(xml);
    expect(await gunzipIfNeeded(plain)).toBe(plain);
  });

  it('throws TargetError(too-large) past the output cap', async () => {
    const bomb = gzipSync(new Uint8Array(1024 * 1024));
    await expect(gunzipIfNeeded(bomb, 64 * 1024)).rejects.toMatchObject({ kind: 'too-large' });
  });

  it('throws TargetError(parse) for corrupt gzip', async () => {
    const corrupt = gzipSync('<urlset></urlset>').subarray(0, 12);
    await expect(gunzipIfNeeded(corrupt)).rejects.toMatchObject({ kind: 'parse' });
  });
});
