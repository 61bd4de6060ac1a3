import { describe, expect, it } from 'vitest';
import { linesToMarkdown } from './lines-to-markdown.js';
import type { PdfLine } from './text-lines.js';

/** Lines top-down at x 72 with a 14 pt leading; `gap` adds space above a line. */
function page(...specs: Array<[text: string, size?: number, gap?: number, x?: number]>): PdfLine[] {
  let y = 700;
  return specs.map(([text, size = 11, gap = 0, x = 72]) => {
    y -= gap;
    const line = { text, size, x, y };
    y -= size === 11 ? 14 : size * 1.2;
    return line;
  });
}

describe('linesToMarkdown', () => {
  it('merges a title set on two lines into one heading and reports it', () => {
    const result = linesToMarkdown([
      page(['A Very Long Title', 24], ['Set On Two Lines', 24], ['Body text here, long enough to be the body.', 11, 10], ['More body.']),
    ]);
    expect(result).toEqual({
      markdown: '# A Very Long Title Set On Two Lines\n\nBody text here, long enough to be the body. More body.',
      firstHeading: 'A Very Long Title Set On Two Lines',
    });
  });

  it('ranks heading sizes: #, ##, ### and deeper sizes share ###', () => {
    const result = linesToMarkdown([page(['H1', 30], ['H2', 20, 10], ['H3', 16, 10], ['H4', 14, 10], ['Body body body body body body body body.', 11, 10])]);
    expect(result.markdown).toBe('# H1\n\n## H2\n\n### H3\n\n### H4\n\nBody body body body body body body body.');
  });

  it('does not call slightly larger text or long large text a heading', () => {
    const long = 'x'.repeat(201);
    const result = linesToMarkdown([page(['Body line with enough characters to set the size.'], ['Eleven and a half', 11.5, 10], [long, 20, 10])]);
    expect(result.firstHeading).toBeUndefined();
    expect(result.markdown.startsWith('#')).toBe(false);
  });

  it('joins hyphenated words only before a lowercase letter', () => {
    const result = linesToMarkdown([page(['a well-'], ['known thing, the pre-'], ['Raphaelite school'])]);
    expect(result.markdown).toBe('a wellknown thing, the pre- Raphaelite school');
  });

  it('continues a list item on indented lines and ends the list at an unindented line', () => {
    const result = linesToMarkdown([page(['• first item that wraps'], ['onto a second line', 11, 0, 84], ['• second'], ['After the list, flush left.'])]);
    expect(result.markdown).toBe('- first item that wraps onto a second line\n- second\n\nAfter the list, flush left.');
  });

  it('escapes text that markdown would read as block syntax', () => {
    const result = linesToMarkdown([
      page(['Lines set'], ['at the usual'], ['leading of'], ['fourteen points.'], ['# not a heading', 11, 10], ['> not a quote', 11, 10], ['---', 11, 10]),
    ]);
    expect(result.markdown).toBe('Lines set at the usual leading of fourteen points.\n\n\\# not a heading\n\n\\> not a quote\n\n\\---');
  });

  it('starts a new paragraph when a line moves up the page (next column)', () => {
    const lines = page(['Left column end.'], ['Right column start.']);
    const right = { ...(lines[1] as PdfLine), x: 320, y: 700 };
    expect(linesToMarkdown([[lines[0] as PdfLine, right]]).markdown).toBe('Left column end.\n\nRight column start.');
  });

  it('returns empty markdown for no text', () => {
    expect(linesToMarkdown([[]])).toEqual({ markdown: '' });
  });
});
