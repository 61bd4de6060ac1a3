import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, GotFetcher, PlaywrightFetcher } from '@quarry/adapters';
import { createEngine, TargetError, type Engine } from '@quarry/core';
import { startTestServer, type TestServer } from '@quarry/core/testing';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * The engine with both fetchers against local pages: engine choice (http first, the browser when
 * options need it or the page is script-rendered), every action type with its results, the
 * screenshot formats, blocked pages and branding.
 */
const chromiumPath = findChromium(process.env.QUARRY_CHROMIUM_PATH);
const skip = !chromiumPath && process.env.CI !== 'true';
if (skip) console.warn('Browser engine tests skipped: no Chromium found (apt-get install chromium, or set QUARRY_CHROMIUM_PATH)');

let site: TestServer;
let engine: Engine;

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test page</title>${head}</head><body>${body}</body></html>`;
const article =
  '<main><h1>Static article</h1>' + '<p>This paragraph is served ready to read, with enough words to be a real page of content.</p>'.repeat(6) + '</main>';

function pngSize(dataUrl: string) {
  const bytes = Buffer.from(dataUrl.split(',')[1]!, 'base64');
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function reportPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([600, 800]).drawText('Quarterly report delivered as a download', { x: 50, y: 700, size: 14, font });
  return pdf.save();
}

beforeAll(async () => {
  const pdf = await reportPdf();
  site = await startTestServer({
    '/report-download': { type: 'application/pdf', body: pdf, headers: { 'content-disposition': 'attachment; filename="report.pdf"' } },
    '/static': { body: page(article) },
    '/spa': {
      body: page(
        '<div id="root"></div><script>' +
          '/* framework */'.repeat(10) +
          'document.getElementById("root").innerHTML = "<main><h1>Client app</h1><p>Rendered in the browser only.</p></main>";</script>',
      ),
    },
    '/interactive': {
      body: page(
        `<main>
          <h1>Interactive</h1>
          <button id="reveal" onclick="document.getElementById('secret').hidden = false">Show more</button>
          <p id="secret" hidden>Revealed by a click</p>
          <input id="q" onkeydown="if (event.key === 'Enter') document.getElementById('echo').textContent = 'You searched ' + this.value">
          <p id="echo"></p>
          <ul id="feed"></ul>
        </main>
        <script>
          let loaded = 0;
          function more() { for (let i = 0; i < 10; i++) { const li = document.createElement('li'); li.style.height = '60px'; li.textContent = 'Item ' + (++loaded); document.getElementById('feed').appendChild(li); } }
          more();
          addEventListener('scroll', () => { if (innerHeight + scrollY >= document.body.scrollHeight - 100 && loaded < 40) more(); });
          setTimeout(() => { const late = document.createElement('p'); late.id = 'late'; late.textContent = 'Late content'; document.querySelector('main').appendChild(late); }, 300);
        </script>`,
      ),
    },
    '/long': { body: page(Array.from({ length: 60 }, (_, index) => `<p style="height:50px">Row ${index}</p>`).join('')) },
    '/challenge': {
      status: 503,
      body: page(
        '<div class="main-wrapper"><h1>Checking your browser before accessing the site.</h1><p>This process is automatic.</p></div><script>window._cf_chl_opt = {};</script>',
      ).replace('<title>Test page</title>', '<title>Just a moment...</title>'),
    },
    '/brand': {
      body: page(
        `<header><a href="/"><img class="logo" src="/logo.png" alt="Acme logo" width="120" height="40"></a></header>
        <main><h1>Acme</h1><p>Build better things with Acme. <a href="/docs">Read the docs</a></p>
        <button class="primary">Get started</button> <button class="ghost">Learn more</button>
        <input type="email" placeholder="you@example.com"><code>npm i acme</code></main>`,
        `<meta property="og:image" content="/og.png"><link rel="icon" href="/favicon.svg">
        <style>
          :root { --brand-primary: #ff5a1f; --color-success: #16a34a; }
          body { font-family: "Inter", Arial, sans-serif; color: #111827; background: #ffffff; font-size: 16px; }
          h1 { font-family: "Poppins", sans-serif; font-size: 48px; font-weight: 700; }
          a { color: #2563eb; }
          button.primary { background: #ff5a1f; color: #ffffff; border: 1px solid #ff5a1f; border-radius: 8px; padding: 12px 24px; }
          button.ghost { background: transparent; color: #111827; border: 1px solid #d1d5db; border-radius: 8px; padding: 12px 24px; }
          input { border: 1px solid #d1d5db; border-radius: 6px; padding: 8px; }
          code { font-family: "JetBrains Mono", monospace; }
        </style>`,
      ),
    },
    '/logo.png': {
      type: 'image/png',
      body: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
    },
  });
  engine = createEngine({
    fetcher: new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }),
    ...(chromiumPath ? { browser: new PlaywrightFetcher({ executablePath: chromiumPath, allowPrivateHosts: ['127.0.0.1'], maxOpenPages: 2 }) } : {}),
  });
});

afterAll(async () => {
  await engine?.close();
  await site?.close();
});

describe.skipIf(skip)('engine with the browser', () => {
  it('uses HTTP for a page that is ready to read and the browser for a script-rendered one', async () => {
    const plain = await engine.scrape(`${site.url}/static`);
    expect(plain.metadata.engine).toBe('http');
    const app = await engine.scrape(`${site.url}/spa`);
    expect(app.metadata.engine).toBe('browser');
    expect(app.markdown).toContain('# Client app');
    expect(app.markdown).toContain('Rendered in the browser only.');
    expect(site.requests.filter((path) => path === '/spa').length).toBe(2);
  });

  it('goes straight to the browser when an option needs it', async () => {
    const before = site.requests.filter((path) => path === '/interactive').length;
    const document = await engine.scrape(`${site.url}/interactive`, { waitFor: 1_000, formats: ['markdown'] });
    expect(document.metadata.engine).toBe('browser');
    expect(document.markdown).toContain('Late content');
    expect(site.requests.filter((path) => path === '/interactive').length).toBe(before + 1);
  });

  it('runs every action type and returns their results', async () => {
    const document = await engine.scrape(`${site.url}/interactive`, {
      formats: ['markdown', 'rawHtml'],
      actions: [
        { type: 'wait', selector: '#late' },
        { type: 'click', selector: '#reveal', all: false },
        { type: 'click', selector: '#q', all: false },
        { type: 'write', text: 'quarry' },
        { type: 'press', key: 'Enter' },
        { type: 'scroll', direction: 'down' },
        { type: 'scroll', direction: 'down' },
        { type: 'wait', milliseconds: 200 },
        { type: 'screenshot', fullPage: false },
        { type: 'scrape' },
        { type: 'executeJavascript', script: 'return document.querySelectorAll("#feed li").length' },
        { type: 'executeJavascript', script: 'document.title' },
        { type: 'pdf', format: 'A4', landscape: false, scale: 1 },
      ],
    });
    expect(document.markdown).toContain('Revealed by a click');
    expect(document.markdown).toContain('You searched quarry');
    expect(document.markdown).toContain('Item 20');
    const actions = document.actions!;
    expect(actions.screenshots).toHaveLength(1);
    expect(pngSize(actions.screenshots[0]!)).toEqual({ width: 1280, height: 720 });
    expect(actions.scrapes).toHaveLength(1);
    expect(actions.scrapes[0]!.url).toBe(`${site.url}/interactive`);
    expect(actions.scrapes[0]!.html).toContain('Revealed by a click');
    expect(actions.javascriptReturns[0]!.type).toBe('number');
    expect(actions.javascriptReturns[0]!.value as number).toBeGreaterThanOrEqual(20);
    expect(actions.javascriptReturns[1]).toEqual({ type: 'string', value: 'Test page' });
    expect(actions.pdfs).toHaveLength(1);
    expect(Buffer.from(actions.pdfs[0]!.split(',')[1]!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('reads a PDF that the browser receives as a download', async () => {
    const document = await engine.scrape(`${site.url}/report-download`, { waitFor: 100, formats: ['markdown'] });
    expect(document.markdown).toContain('Quarterly report delivered as a download');
    expect(document.metadata).toMatchObject({ engine: 'pdf', numPages: 1, contentType: 'application/pdf' });
  }, 60_000);

  it('names the action that does not fit the page', async () => {
    await expect(
      engine.scrape(`${site.url}/interactive`, {
        timeout: 8_000,
        actions: [
          { type: 'click', selector: '#reveal', all: false },
          { type: 'click', selector: '#missing', all: false },
        ],
      }),
    ).rejects.toThrow(/actions\[1\]` \(click\) failed on the page/);
  });

  it('returns viewport and full-page screenshots as PNG data URLs', async () => {
    const viewport = await engine.scrape(`${site.url}/long`, { formats: ['screenshot'] });
    expect(viewport.markdown).toBeUndefined();
    expect(pngSize(viewport.screenshot!)).toEqual({ width: 1280, height: 720 });
    const full = await engine.scrape(`${site.url}/long`, { formats: [{ type: 'screenshot', fullPage: true }] });
    const size = pngSize(full.screenshot!);
    expect(size.width).toBe(1280);
    expect(size.height).toBeGreaterThan(60 * 50);
  });

  it('reports a challenge page as a retryable blocked error, after trying the browser too', async () => {
    const error = await engine.scrape(`${site.url}/challenge`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TargetError);
    expect(error).toMatchObject({ kind: 'blocked', retryable: true, details: { template: 'cloudflare-challenge' } });
    expect((error as Error).message).toMatch(/Cloudflare bot-protection page/);
  });

  it('measures branding from the rendered page', async () => {
    const document = await engine.scrape(`${site.url}/brand`, { formats: ['branding'] });
    const branding = document.branding as Record<string, any>;
    expect(branding.colorScheme).toBe('light');
    expect(branding.colors).toMatchObject({ primary: '#FF5A1F', background: '#FFFFFF', textPrimary: '#111827', link: '#2563EB', success: '#16A34A' });
    expect(branding.fonts).toEqual(
      expect.arrayContaining([
        { family: 'Poppins', role: 'heading' },
        { family: 'Inter', role: 'body' },
        { family: 'JetBrains Mono', role: 'monospace' },
      ]),
    );
    expect(branding.typography.fontSizes).toMatchObject({ h1: '48px', body: '16px' });
    expect(branding.typography.fontWeights).toMatchObject({ h1: 700 });
    expect(branding.components.buttonPrimary).toMatchObject({ background: '#FF5A1F', textColor: '#FFFFFF', borderRadius: '8px' });
    expect(branding.components.input).toMatchObject({ borderColor: '#D1D5DB', borderRadius: '6px' });
    expect(branding.images).toMatchObject({
      logo: `${site.url}/logo.png`,
      logoAlt: 'Acme logo',
      logoHref: `${site.url}/`,
      favicon: `${site.url}/favicon.svg`,
      ogImage: `${site.url}/og.png`,
    });
  });
});
