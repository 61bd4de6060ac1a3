import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Firecrawl from '@mendable/firecrawl-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { localTeamId } from '@quarry/core';
import { docxFile, pptxFile, startOpenAiDouble, startTestServer, xlsxFile, type LlmDouble, type TestServer } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * POST /v2/parse through the official SDK's `parse` and raw multipart requests, on a real Quarry
 * with the local OpenAI double as its model; office files are built in the test. Also a scrape of
 * a URL that serves a DOCX, which goes through the same converters.
 */
const docxMime = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const maxBytes = 100_000;

let site: TestServer;
let openai: LlmDouble;
let quarry: TestQuarry;
let firecrawl: Firecrawl;

const kettleDocx = () =>
  docxFile({
    title: 'Kettle sheet',
    pages: 2,
    blocks: [
      { heading: 'Acme Kettle' },
      { paragraph: 'Name: Acme Kettle' },
      { paragraph: 'Price: 39.50' },
      { link: { text: 'Shop', url: 'https://shop.example/kettle' } },
    ],
  });

const creditsCharged = async () => (await quarry.services.ledger.listUsage(localTeamId, { kind: 'credits' })).reduce((sum, row) => sum + row.amount, 0);

async function upload(parts: { file?: { data: Uint8Array | string; name: string; type?: string }; options?: string }) {
  const form = new FormData();
  if (parts.options !== undefined) form.append('options', parts.options);
  if (parts.file)
    form.append(
      'file',
      new Blob([typeof parts.file.data === 'string' ? parts.file.data : new Uint8Array(parts.file.data)], parts.file.type ? { type: parts.file.type } : {}),
      parts.file.name,
    );
  const response = await fetch(`${quarry.url}/v2/parse`, { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

beforeAll(async () => {
  site = await startTestServer({ '/kettle.docx': { type: docxMime, body: kettleDocx() } });
  openai = await startOpenAiDouble({ apiKey: 'sk-double' });
  quarry = await startQuarry({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: 'sk-double', MODEL_NAME: 'double-1', QUARRY_PARSE_MAX_BYTES: String(maxBytes) });
  firecrawl = new Firecrawl({ apiKey: '', apiUrl: quarry.url });
});

afterAll(async () => {
  await quarry?.close();
  await openai?.close();
  await site?.close();
});

describe('POST /v2/parse through the SDK', () => {
  it('a DOCX becomes markdown, html and links, with its properties, for one credit', async () => {
    const before = await creditsCharged();
    const document = await firecrawl.parse({ data: Buffer.from(kettleDocx()), filename: 'kettle.docx' }, { formats: ['markdown', 'html', 'links'] });
    expect(document.markdown).toContain('# Acme Kettle');
    expect(document.markdown).toContain('[Shop](https://shop.example/kettle)');
    expect(document.html).toContain('<h1>Acme Kettle</h1>');
    expect(document.links).toEqual(['https://shop.example/kettle']);
    expect(document.metadata).toMatchObject({ title: 'Kettle sheet', numPages: 2, sourceURL: 'kettle.docx', creditsUsed: 1 });
    expect(await creditsCharged()).toBe(before + 1);
  });

  it('XLSX sheets and PPTX slides, with their counts', async () => {
    const sheets = await firecrawl.parse({
      data: xlsxFile({
        sheets: [
          {
            name: 'Prices',
            rows: [
              ['Item', 'Price'],
              ['Kettle', 39.5],
            ],
          },
        ],
      }),
      filename: 'prices.xlsx',
    });
    expect(sheets.markdown).toMatch(/## Prices\n\n\| Item \| Price \|\n\| -+ \| -+ \|\n\| Kettle \| 39\.5 \|/);
    expect(sheets.metadata).toMatchObject({ numSheets: 1 });
    const deck = await firecrawl.parse(
      {
        data: pptxFile({
          slides: [
            { title: 'Intro', paragraphs: ['Hello'] },
            { title: 'Plan', paragraphs: ['Ship it'] },
          ],
        }),
        filename: 'deck.pptx',
      },
      { formats: ['markdown'] },
    );
    expect(deck.markdown).toMatch(/## Intro\n\nHello\n\n## Plan\n\nShip it/);
    expect(deck.metadata).toMatchObject({ numSlides: 2 });
  });

  it('a PDF costs a credit per page; CSV and Markdown sent as text', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (const text of ['Page one', 'Page two', 'Page three']) pdf.addPage([300, 300]).drawText(text, { x: 20, y: 250, size: 12, font });
    const before = await creditsCharged();
    const parsed = await firecrawl.parse({ data: await pdf.save(), filename: 'three.pdf', contentType: 'application/pdf' });
    expect(parsed.markdown).toContain('Page three');
    expect(parsed.metadata).toMatchObject({ numPages: 3, creditsUsed: 3 });
    expect(await creditsCharged()).toBe(before + 3);
    const csv = await firecrawl.parse({ data: 'a,b\n1,"x, y"\n', filename: 'data.csv' });
    expect(csv.markdown).toContain('| 1 | x, y |');
    const markdown = await firecrawl.parse({ data: '# Notes\n\nPlain words.', filename: 'notes.md' });
    expect(markdown.markdown).toBe('# Notes\n\nPlain words.');
  });

  it('the json format answers from the file with the configured model, for 5 credits', async () => {
    const before = await creditsCharged();
    const schema = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] };
    const document = await firecrawl.parse({ data: Buffer.from(kettleDocx()), filename: 'kettle.docx' }, { formats: [{ type: 'json', schema }] });
    expect(document.json).toEqual({ name: 'Acme Kettle', price: 39.5 });
    expect(document.metadata?.creditsUsed).toBe(5);
    expect(await creditsCharged()).toBe(before + 5);
  });
});

describe('POST /v2/parse with the summary format', () => {
  it('summarises the file with the configured model', async () => {
    const document = await firecrawl.parse({ data: Buffer.from(kettleDocx()), filename: 'kettle.docx' }, { formats: ['markdown', 'summary'] });
    expect(document.summary).toMatch(/^Summary: /);
    expect(document.markdown).toContain('Acme Kettle');
  });
});

describe('POST /v2/parse refusals (nothing charged)', () => {
  it('a file over QUARRY_PARSE_MAX_BYTES answers 413', async () => {
    const before = await creditsCharged();
    const { status, body } = await upload({ file: { data: 'x'.repeat(maxBytes + 1), name: 'big.txt' } });
    expect(status).toBe(413);
    expect(body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', error: expect.stringContaining('QUARRY_PARSE_MAX_BYTES') });
    expect(await creditsCharged()).toBe(before);
  });

  it('a type Quarry does not read answers 415, through the SDK too', async () => {
    const before = await creditsCharged();
    const { status, body } = await upload({
      file: { data: new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0, 0, 0]), name: 'legacy.doc', type: 'application/msword' },
    });
    expect(status).toBe(415);
    expect(body.error).toContain('legacy.doc');
    await expect(
      firecrawl.parse({ data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]), filename: 'image.png', contentType: 'image/png' }),
    ).rejects.toMatchObject({ status: 415 });
    expect(await creditsCharged()).toBe(before);
  });

  it('bad input answers 400 naming the field', async () => {
    const noFile = await upload({ options: '{}' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.details[0].path).toEqual(['file']);
    const badJson = await upload({ file: { data: 'x', name: 'a.txt' }, options: '{not json' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.details[0].path).toEqual(['options']);
    const badFormat = await upload({ file: { data: 'x', name: 'a.txt' }, options: JSON.stringify({ formats: ['screenshot'] }) });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.details[0].path).toEqual(['formats', 0]);
    const badTimeout = await upload({ file: { data: 'x', name: 'a.txt' }, options: JSON.stringify({ timeout: 'soon' }) });
    expect(badTimeout.status).toBe(400);
    expect(badTimeout.body.error).toContain('timeout');
    const json = await fetch(`${quarry.url}/v2/parse`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    expect(((await json.json()) as any).details[0].path).toEqual(['file']);
  });
});

describe('scraping a URL that serves an office file', () => {
  it('a DOCX at a URL comes back as markdown', async () => {
    const document = await firecrawl.scrape(`${site.url}/kettle.docx`, { formats: ['markdown'] });
    expect(document.markdown).toContain('# Acme Kettle');
    expect(document.metadata).toMatchObject({ title: 'Kettle sheet', numPages: 2, statusCode: 200 });
  });
});
