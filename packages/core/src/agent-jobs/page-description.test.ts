import { describe, expect, it } from 'vitest';
import type { ScrapeDocument } from '../document.js';
import { describePage, firstParagraph, plainText, shorten } from './page-description.js';

const page = (markdown: string, metadata: Record<string, unknown> = {}): ScrapeDocument => ({
  markdown,
  metadata: {
    sourceURL: 'https://site.test/',
    url: 'https://site.test/',
    statusCode: 200,
    scrapeId: 's',
    creditsUsed: 1,
    proxyUsed: 'basic',
    engine: 'http',
    ...metadata,
  },
});

describe('describePage', () => {
  it('prefers the meta description, then the OpenGraph one', () => {
    expect(describePage(page('Text', { description: '  The install\n guide. ' }))).toBe('The install guide.');
    expect(describePage(page('Text', { ogDescription: 'From OpenGraph.' }))).toBe('From OpenGraph.');
  });

  it('falls back to the first paragraph of prose, as plain text', () => {
    const markdown =
      '# Title\n\n- a list\n\n```js\nconst x = 1;\n```\n\n| a | b |\n\nThis is **the** first [real](https://x) paragraph of `prose`.\n\nSecond one.';
    expect(describePage(page(markdown))).toBe('This is the first real paragraph of prose.');
    expect(firstParagraph('# Only a heading')).toBeUndefined();
  });

  it('keeps escaped characters and underscores inside words (file and function names)', () => {
    expect(plainText('Source code: Lib/json/\\_\\_init\\_\\_.py and __main__ and snake_case_name')).toBe(
      'Source code: Lib/json/__init__.py and main and snake_case_name',
    );
    expect(plainText('An *emphasised* word, a _second_ one, and \\*stars\\*.')).toBe('An emphasised word, a second one, and *stars*.');
  });

  it('keeps descriptions to one short line, cut after a sentence or at a word', () => {
    expect(shorten('One sentence here. Another sentence that goes on and on.', 30)).toBe('One sentence here.');
    expect(shorten('word '.repeat(20).trim(), 22)).toBe('word word word word…');
  });
});
