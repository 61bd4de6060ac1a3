import { PDFDocument, StandardFonts } from 'pdf-lib';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.js';
import type { Fetcher } from '../ports/fetcher.js';
import { docxFile, odsFile, pptxFile, xlsxFile } from '../test/office-files.js';

// Parsing never fetches: a fetcher that would fail the test if it were asked.
const noFetcher: Fetcher = {
  name: 'none',
  fetch: () => Promise.reject(new Error('parse must not fetch')),
};
const engine = createEngine({ fetcher: noFetcher });

describe('engine.parse', () => {
  it('turns a DOCX into markdown with its headings, lists, tables and links, and its properties', async () => {
    const bytes = docxFile({
      title: 'Quarterly Report',
      pages: 3,
      blocks: [
        { heading: 'Results' },
        { paragraph: 'Revenue grew by 12 percent.' },
        { bullets: ['First point', 'Second point'] },
        {
          table: [
            ['Region', 'Sales'],
            ['North', '40'],
          ],
        },
        { link: { text: 'the source', url: 'https://example.com/source' } },
      ],
    });
    const document = await engine.parse({ bytes, filename: 'report.docx' }, { formats: ['markdown', 'html', 'links'] });
    expect(document.markdown).toContain('# Results');
    expect(document.markdown).toContain('Revenue grew by 12 percent.');
    expect(document.markdown).toMatch(/- First point\n- Second point/);
    expect(document.markdown).toMatch(/\| Region \| Sales \|/);
    expect(document.markdown).toContain('[the source](https://example.com/source)');
    expect(document.html).toContain('<h1>Results</h1>');
    expect(document.links).toEqual(['https://example.com/source']);
    expect(document.metadata).toMatchObject({
      title: 'Quarterly Report',
      author: 'Quarry Tests',
      numPages: 3,
      sourceURL: 'report.docx',
      statusCode: 200,
      creditsUsed: 1,
      engine: 'docx',
    });
  });

  it('turns every sheet of an XLSX into a table, in workbook order, with numbers and booleans as stored', async () => {
    const bytes = xlsxFile({
      sheets: [
        {
          name: 'Prices',
          rows: [
            ['Item', 'Price', 'In stock'],
            ['Apple', 1.25, true],
            ['Pear', 2, false],
          ],
        },
        {
          name: 'Notes',
          rows: [
            ['Note', 'By'],
            ['Fresh & ripe', 'Ann'],
          ],
        },
      ],
    });
    const document = await engine.parse({ bytes, filename: 'prices.xlsx' }, { formats: ['markdown'] });
    expect(document.markdown).toMatch(
      /## Prices\n\n\| Item \| Price \| In stock \|\n\| -+ \| -+ \| -+ \|\n\| Apple \| 1\.25 \| TRUE \|\n\| Pear \| 2 \| FALSE \|/,
    );
    expect(document.markdown!.indexOf('## Notes')).toBeGreaterThan(document.markdown!.indexOf('## Prices'));
    expect(document.markdown).toContain('| Fresh & ripe | Ann |');
    expect(document.metadata.numSheets).toBe(2);
  });

  it('reads an ODS without expanding the empty rows LibreOffice repeats to the end of the sheet', async () => {
    const bytes = odsFile({
      sheets: [
        {
          name: 'Stock',
          rows: [
            ['Item', 'Count'],
            ['Bolts', 40],
          ],
        },
      ],
    });
    const started = Date.now();
    const document = await engine.parse({ bytes, filename: 'stock.ods' }, { formats: ['markdown'] });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(document.markdown).toMatch(/## Stock\n\n\| Item \| Count \|\n\| -+ \| -+ \|\n\| Bolts \| 40 \|$/);
    expect(document.metadata.numSheets).toBe(1);
  });

  it('reads CSV with quoted fields, embedded separators and quotes', async () => {
    const csv = 'name,comment\r\n"Smith, Jane","said ""hi"""\r\nLee,plain\r\n';
    const document = await engine.parse({ bytes: strToU8(csv), filename: 'people.csv' }, { formats: ['markdown'] });
    expect(document.markdown).toContain('| Smith, Jane | said "hi" |');
    expect(document.markdown).toContain('| Lee | plain |');
  });

  it('turns PPTX slides into sections in presentation order, not file order', async () => {
    const bytes = pptxFile({
      title: 'Roadmap',
      slides: [
        { title: 'Welcome', paragraphs: ['Agenda for today'] },
        { title: 'Plans', paragraphs: ['Ship parse', 'Ship agent'] },
      ],
    });
    const document = await engine.parse({ bytes, filename: 'deck.pptx' }, { formats: ['markdown'] });
    expect(document.markdown).toMatch(/## Welcome\n\nAgenda for today\n\n## Plans\n\nShip parse\n\nShip agent/);
    expect(document.metadata).toMatchObject({ title: 'Roadmap', numSlides: 2 });
  });

  it('parses a PDF per page, charging a credit per page', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (const text of ['First page text', 'Second page text']) pdf.addPage([300, 300]).drawText(text, { x: 20, y: 250, size: 12, font });
    const document = await engine.parse({ bytes: await pdf.save(), filename: 'two.pdf' }, { formats: ['markdown'] });
    expect(document.markdown).toContain('First page text');
    expect(document.markdown).toContain('Second page text');
    expect(document.metadata).toMatchObject({ numPages: 2, creditsUsed: 2 });
  });

  it('takes HTML, Markdown and text as they are', async () => {
    const html = await engine.parse(
      {
        bytes: strToU8('<html><head><title>T</title></head><body><h1>Hello</h1><p>World <a href="https://example.com/">x</a></p></body></html>'),
        filename: 'page.html',
      },
      { formats: ['markdown', 'links'], onlyMainContent: false },
    );
    expect(html.markdown).toContain('# Hello');
    expect(html.links).toEqual(['https://example.com/']);
    expect(html.metadata.title).toBe('T');
    const markdown = await engine.parse({ bytes: strToU8('# Title\n\nSome *text*.'), filename: 'notes.md' }, { formats: ['markdown'] });
    expect(markdown.markdown).toBe('# Title\n\nSome *text*.');
    const text = await engine.parse({ bytes: strToU8('just text'), filename: 'notes', contentType: 'text/plain' }, { formats: ['markdown'] });
    expect(text.markdown).toBe('just text');
  });

  it('refuses what it cannot read as unsupported-type, and a broken office file as a parse failure', async () => {
    await expect(engine.parse({ bytes: strToU8('binary'), filename: 'old.doc' })).rejects.toMatchObject({ kind: 'unsupported-type' });
    await expect(
      engine.parse({ bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), filename: 'image', contentType: 'application/octet-stream' }),
    ).rejects.toMatchObject({ kind: 'unsupported-type' });
    const otherZip = zipSync({ 'readme.txt': strToU8('hello') });
    await expect(engine.parse({ bytes: otherZip, filename: 'archive', contentType: 'application/zip' })).rejects.toMatchObject({ kind: 'unsupported-type' });
    await expect(engine.parse({ bytes: strToU8('not a zip'), filename: 'broken.docx' })).rejects.toMatchObject({ kind: 'parse' });
  });

  it('recognises an office file sent without a name or type by its parts', async () => {
    const bytes = xlsxFile({
      sheets: [
        {
          name: 'S',
          rows: [
            ['a', 'b'],
            ['1', '2'],
          ],
        },
      ],
    });
    const document = await engine.parse({ bytes, filename: 'upload', contentType: 'application/octet-stream' }, { formats: ['markdown'] });
    expect(document.markdown).toContain('| a | b |');
  });

  it('refuses a zip whose parts would expand past the limit before inflating them', async () => {
    // A small zip whose directory says its document expands to 2 GB, as a zip bomb's does.
    const bomb = zipSync({ 'word/document.xml': strToU8('<w:document/>') });
    const view = new DataView(bomb.buffer, bomb.byteOffset, bomb.byteLength);
    for (let offset = 0; offset + 4 <= bomb.length; offset++) {
      if (view.getUint32(offset, true) === 0x02014b50) view.setUint32(offset + 24, 0x7fffffff, true);
    }
    await expect(engine.parse({ bytes: bomb, filename: 'bomb.docx' })).rejects.toMatchObject({ code: 'too_large' });
  });

  it('refuses formats a file has no page for, naming the field', async () => {
    await expect(engine.parse({ bytes: strToU8('x'), filename: 'a.txt' }, { formats: ['markdown', 'screenshot'] })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('formats[1]'),
    });
  });
});
