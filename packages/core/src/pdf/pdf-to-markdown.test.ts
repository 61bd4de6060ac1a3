import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { TargetError, TimeoutError } from '../errors.js';
import { isPdf } from './is-pdf.js';
import { pdfToMarkdown } from './pdf-to-markdown.js';

/** One drawn line: text, font size, and extra space above it (points) beyond the usual leading. */
type Line = [text: string, size: number, spaceBefore?: number, indent?: number];

const body = 11;
const leading = 14;

/** Writes pages of lines top-down the way a word processor would: baseline after baseline. */
async function makePdf(pages: Line[][], info: { title?: string; author?: string } = {}): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  if (info.title) document.setTitle(info.title);
  if (info.author) document.setAuthor(info.author);
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = document.addPage([612, 792]);
    let y = 740;
    for (const [text, size, spaceBefore = 0, indent = 0] of lines) {
      y -= spaceBefore;
      draw(page, text, size, 72 + indent, y, font);
      y -= size === body ? leading : size * 1.3;
    }
  }
  return document.save();
}

function draw(page: ReturnType<PDFDocument['addPage']>, text: string, size: number, x: number, y: number, font: PDFFont): void {
  page.drawText(text, { x, y, size, font });
}

const report: Line[][] = [
  [
    ['Quarry Field Report', 26],
    ['Introduction', 16, 10],
    ['Quarry turns web pages into data that language mod-', body, 6],
    ['els can read. This paragraph spans three lines and', body],
    ['must come out as one paragraph.', body],
    ['A second paragraph starts after a wider gap.', body, 10],
    ['• fetch the page', body, 10],
    ['• convert it to markdown', body],
    ['• store the document', body],
  ],
  [
    ['Details', 16],
    ['Numbers', 13, 6],
    ['1. first step', body, 6],
    ['2. second step', body],
    ['The numbers above are steps.', body, 10],
  ],
  [['Closing words on the last page.', body]],
];

describe('pdfToMarkdown', () => {
  it('turns a three-page report into headings, paragraphs, lists and page breaks', async () => {
    const result = await pdfToMarkdown(await makePdf(report, { author: 'Ann Writer' }));
    expect(result.numPages).toBe(3);
    expect(result.author).toBe('Ann Writer');
    expect(result.title).toBe('Quarry Field Report');
    expect(result.markdown).toBe(
      [
        '# Quarry Field Report',
        '',
        '## Introduction',
        '',
        'Quarry turns web pages into data that language models can read. This paragraph spans three lines and must come out as one paragraph.',
        '',
        'A second paragraph starts after a wider gap.',
        '',
        '- fetch the page',
        '- convert it to markdown',
        '- store the document',
        '',
        '---',
        '',
        '## Details',
        '',
        '### Numbers',
        '',
        '1. first step',
        '2. second step',
        '',
        'The numbers above are steps.',
        '',
        '---',
        '',
        'Closing words on the last page.',
      ].join('\n'),
    );
  });

  it('prefers the info-dictionary title and reads the other metadata fields', async () => {
    const document = await PDFDocument.create();
    document.setTitle('Stored Title');
    document.setSubject('Testing');
    document.setKeywords(['pdf', 'markdown']);
    document.setCreationDate(new Date('2024-05-06T07:08:09Z'));
    document.addPage().drawText('Hello', { size: 12 });
    const result = await pdfToMarkdown(await document.save());
    expect(result).toEqual({
      markdown: 'Hello',
      numPages: 1,
      title: 'Stored Title',
      subject: 'Testing',
      keywords: 'pdf markdown',
      creationDate: '2024-05-06T07:08:09.000Z',
    });
  });

  it('stops after maxPages but reports the page count of the whole document', async () => {
    const result = await pdfToMarkdown(await makePdf(report), { maxPages: 1 });
    expect(result.numPages).toBe(3);
    expect(result.markdown).not.toContain('---');
    expect(result.markdown).not.toContain('Details');
  });

  it('keeps an empty page as an empty section between page breaks', async () => {
    const result = await pdfToMarkdown(await makePdf([[['One', body]], [], [['Three', body]]]));
    expect(result.markdown).toBe('One\n\n---\n\n\n\n---\n\nThree');
  });

  it('reads a Node Buffer without detaching or changing it', async () => {
    const bytes = Buffer.from(await makePdf([[['Buffer input', body]]]));
    const copy = Buffer.from(bytes);
    expect((await pdfToMarkdown(bytes)).markdown).toBe('Buffer input');
    expect(bytes.equals(copy)).toBe(true);
  });

  it('throws TargetError(parse) for bytes that are not a PDF', async () => {
    const error = await pdfToMarkdown(new TextEncoder().encode('<html>not a pdf</html>')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TargetError);
    expect(error).toMatchObject({ kind: 'parse', message: expect.stringMatching(/^PDF could not be parsed: /) });
  });

  it('throws TargetError(parse) for a PDF header followed by garbage', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref\n%%EOF');
    await expect(pdfToMarkdown(bytes)).rejects.toMatchObject({ kind: 'parse' });
  });

  it('throws TimeoutError when the signal is already aborted', async () => {
    const bytes = await makePdf(report);
    await expect(pdfToMarkdown(bytes, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(TimeoutError);
  });

  it('throws TimeoutError when the signal aborts during the conversion', async () => {
    const bytes = await makePdf(report);
    const controller = new AbortController();
    const conversion = pdfToMarkdown(bytes, { signal: controller.signal });
    controller.abort();
    await expect(conversion).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('isPdf', () => {
  it.each([
    ['%PDF-1.7\n', true],
    ['\ufeff%PDF-1.4', true],
    ['\r\n %PDF-2.0', true],
    ['%PDF', false],
    ['<html>%PDF-1.7', false],
    ['', false],
  ])('%j -> %s', (text, expected) => {
    expect(isPdf(new TextEncoder().encode(text))).toBe(expected);
  });
});
