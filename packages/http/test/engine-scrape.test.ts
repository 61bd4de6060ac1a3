import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GotFetcher } from '@quarry/adapters';
import { createEngine, NotAvailableError, TargetError, TimeoutError, ValidationError, type Engine } from '@quarry/core';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** The scrape engine end to end: GotFetcher against a local site, every non-browser format. */
let site: TestServer;
let engine: Engine;

async function makePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const [index, text] of ['Quarry PDF first page', 'Second page text'].entries()) {
    const page = pdf.addPage([600, 800]);
    page.drawText(index === 0 ? 'A Big Title' : 'Another Heading', { x: 50, y: 740, size: 28, font });
    page.drawText(text, { x: 50, y: 700, size: 12, font });
  }
  return pdf.save();
}

beforeAll(async () => {
  const pdf = await makePdf();
  site = await startTestServer({
    ...docsSiteRoutes(),
    '/report.pdf': { type: 'application/pdf', body: pdf },
    '/notes.txt': { type: 'text/plain; charset=utf-8', body: 'plain notes\nsecond line' },
    '/image.png': { type: 'image/png', body: new Uint8Array([137, 80, 78, 71]) },
    '/slow': async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      response.end('<html><body>late</body></html>');
    },
    '/base64': {
      body: '<html><body><main><h1>Pic</h1><p>An image follows in this paragraph of text that is long enough.</p><img alt="dot" src="data:image/png;base64,iVBORw0KGgo="></main></body></html>',
    },
  });
  engine = createEngine({ fetcher: new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }) });
});

afterAll(async () => {
  await engine?.close();
  await site?.close();
});

describe('engine.scrape', () => {
  it('returns the main content as markdown, without the chrome', async () => {
    const document = await engine.scrape(`${site.url}/docs/install`);
    expect(document.markdown).toContain('# Install');
    expect(document.markdown).toContain(tokenOf('/docs/install'));
    expect(document.markdown).toContain('| Option | Default |');
    expect(document.markdown).toContain('```js\nconst answer = 42;');
    expect(document.markdown).not.toContain('We use cookies');
    expect(document.markdown).not.toContain('© Docs Site');
    expect(document.html).toBeUndefined();
    expect(document.metadata).toMatchObject({
      title: 'Install | Docs Site',
      description: 'The Install page of the docs site.',
      language: 'en',
      sourceURL: `${site.url}/docs/install`,
      url: `${site.url}/docs/install`,
      statusCode: 200,
      contentType: 'text/html; charset=utf-8',
      favicon: `${site.url}/favicon.ico`,
      ogTitle: 'Install',
      'og:title': 'Install',
      creditsUsed: 1,
      engine: 'http',
    });
    expect(document.metadata.scrapeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps the whole page with onlyMainContent false', async () => {
    const document = await engine.scrape(`${site.url}/docs/install`, { onlyMainContent: false });
    expect(document.markdown).toContain('© Docs Site');
  });

  it('derives every non-browser format from one fetch', async () => {
    const document = await engine.scrape(`${site.url}/docs/`, { formats: ['markdown', 'html', 'rawHtml', 'links', 'images'] });
    expect(document.rawHtml).toContain('<header class="site-header">');
    expect(document.html).toContain('<h1>Docs</h1>');
    expect(document.html).not.toContain('<script');
    expect(document.links).toEqual(expect.arrayContaining([`${site.url}/docs/install`, `${site.url}/docs/config`, 'https://example.org/elsewhere']));
    expect(new Set(document.links).size).toBe(document.links!.length);
    expect(site.requests.filter((path) => path === '/docs/').length).toBe(1);
  });

  it('applies include and exclude tags as CSS selectors', async () => {
    const only = await engine.scrape(`${site.url}/about`, { includeTags: ['table'], onlyMainContent: false });
    expect(only.markdown?.trim().startsWith('| Option | Default |')).toBe(true);
    const without = await engine.scrape(`${site.url}/about`, { excludeTags: ['table', 'pre'], onlyMainContent: false });
    expect(without.markdown).not.toContain('| Option');
    expect(without.markdown).not.toContain('const answer');
    await expect(engine.scrape(`${site.url}/about`, { includeTags: ['p[['] })).rejects.toThrow(/includeTags\[0\]` must be a CSS selector/);
  });

  it('keeps sourceURL verbatim and reports the final URL after a redirect', async () => {
    const document = await engine.scrape(`${site.url}/moved?utm=1&x`);
    expect(document.metadata.sourceURL).toBe(`${site.url}/moved?utm=1&x`);
    expect(document.metadata.url).toBe(`${site.url}/docs/config`);
  });

  it('returns error pages as documents with their status', async () => {
    const missing = await engine.scrape(`${site.url}/missing`);
    expect(missing.metadata.statusCode).toBe(404);
    expect(missing.metadata.error).toMatch(/404/);
    const broken = await engine.scrape(`${site.url}/broken`);
    expect(broken.metadata.statusCode).toBe(500);
  });

  it('parses PDFs to markdown with one credit per page, or returns base64', async () => {
    const parsed = await engine.scrape(`${site.url}/report.pdf`);
    expect(parsed.markdown).toContain('A Big Title');
    expect(parsed.markdown).toContain('Second page text');
    expect(parsed.metadata).toMatchObject({ numPages: 2, creditsUsed: 2, engine: 'pdf', contentType: 'application/pdf' });
    const raw = await engine.scrape(`${site.url}/report.pdf`, { parsers: [] });
    expect(raw.markdown?.startsWith('JVBERi0')).toBe(true);
    expect(raw.metadata.creditsUsed).toBe(1);
  });

  it('renders JSON as a fenced block and text as is', async () => {
    const json = await engine.scrape(`${site.url}/data.json`);
    expect(json.markdown).toBe('```json\n{\n  "name": "quarry",\n  "pages": 12\n}\n```');
    const text = await engine.scrape(`${site.url}/notes.txt`);
    expect(text.markdown).toBe('plain notes\nsecond line');
  });

  it('refuses other content types with a clear error', async () => {
    await expect(engine.scrape(`${site.url}/image.png`)).rejects.toThrow(TargetError);
    await expect(engine.scrape(`${site.url}/image.png`)).rejects.toThrow(/Unsupported content type "image\/png"/);
  });

  it('replaces base64 images unless asked not to', async () => {
    const removed = await engine.scrape(`${site.url}/base64`);
    expect(removed.markdown).toContain('![dot](<Base64-Image-Removed>)');
    const kept = await engine.scrape(`${site.url}/base64`, { removeBase64Images: false });
    expect(kept.markdown).toContain('data:image/png;base64,iVBORw0KGgo=');
  });

  it('times out slow pages', async () => {
    await expect(engine.scrape(`${site.url}/slow`, { timeout: 1_000 })).rejects.toThrow(TimeoutError);
  });

  it('answers options whose engine is missing with a clear error, never silently', async () => {
    await expect(engine.scrape(`${site.url}/`, { actions: [{ type: 'click', selector: 'a', all: false }] })).rejects.toThrow(NotAvailableError);
    await expect(engine.scrape(`${site.url}/`, { formats: ['screenshot'] })).rejects.toThrow(
      /needs the browser engine, which is not available in this engine yet/,
    );
    await expect(engine.scrape(`${site.url}/`, { formats: [{ type: 'json', prompt: 'title' }] })).rejects.toThrow(
      /needs an LLM provider \(configure OPENAI_BASE_URL .*ANTHROPIC_API_KEY\), which is not available in this engine yet/,
    );
    await expect(engine.scrape(`${site.url}/`, { waitFor: 1_000 })).rejects.toThrow(/`waitFor` needs the browser engine/);
  });

  it('rejects bad input with the field named', async () => {
    await expect(engine.scrape('not a url')).rejects.toThrow(ValidationError);
    await expect(engine.scrape('ftp://example.com/file')).rejects.toThrow(/`url` must use http or https; got "ftp"/);
    await expect(engine.scrape(`${site.url}/`, { timeout: 10 })).rejects.toThrow(/`timeout` must be >= 1000; got number 10/);
    await expect(engine.scrape(`${site.url}/`, { waitFor: 20_000, timeout: 30_000 })).rejects.toThrow(/`waitFor` must not exceed half of timeout/);
    await expect(engine.scrape(`${site.url}/`, { bogus: true } as never)).rejects.toThrow(/Unrecognized key in body: `bogus`/);
    await expect(engine.scrape(`${site.url}/`, { formats: 'markdown' } as never)).rejects.toThrow(/`formats` must be an array; got "markdown"/);
  });

  it('refuses private addresses unless the operator allows them', async () => {
    const guarded = createEngine({ fetcher: new GotFetcher() });
    try {
      await expect(guarded.scrape(`${site.url}/`)).rejects.toThrow(/127\.0\.0\.1/);
      await expect(guarded.scrape(`${site.url}/`)).rejects.toMatchObject({ code: 'target_failed' });
    } finally {
      await guarded.close();
    }
  });
});
