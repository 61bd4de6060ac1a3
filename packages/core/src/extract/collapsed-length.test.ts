import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/parse-html.js';
import { collapsedLength, collapsedText, descendantElements } from './dom-tools.js';

const samples = [
  '',
  '   ',
  '<p>plain</p>',
  '<p>  leading and trailing  </p>',
  '<p>a\n\t b<br>c<br><br> d </p>',
  '<div><span> a </span><span> b</span>c</div>',
  '<p>\u00a0nbsp\u2003em\u3000ideographic\ufeffbom\u200bzero-width\u2028line</p>',
  '<p>𝒳 surrogate \ud835 pairs 😀</p>',
  '<div><!-- a comment -->x<![CDATA[ y ]]><script> z </script></div>',
  '<br><p>after a break</p><br>',
];

describe('collapsedLength', () => {
  it('is the length of collapsedText for every element of hand-made samples', () => {
    for (const html of samples) {
      const document = parseHtml(html);
      expect(collapsedLength(document)).toBe(collapsedText(document).length);
      for (const element of descendantElements(document)) expect(collapsedLength(element)).toBe(collapsedText(element).length);
    }
  });

  it('is the length of collapsedText for every element of the extractor fixtures', () => {
    const root = join(import.meta.dirname, '../../test/fixtures');
    const pages = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages.slice(0, 60)) {
      const document = parseHtml(readFileSync(join(root, page), 'utf8'));
      for (const element of descendantElements(document)) expect(collapsedLength(element)).toBe(collapsedText(element).length);
    }
  });
});
