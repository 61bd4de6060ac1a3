import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './index.js';

const markdownOf = (html: string): string => htmlToMarkdown(parseDocument(html).children, { baseUrl: 'https://docs.example.com/' });

describe('line-number gutters found by their shape', () => {
  it('leaves out numbers that open every line and count up, whatever their class', () => {
    const html =
      '<pre><span></span><span class="u7"> 9</span><span class="u2">import</span> sys\n<span class="u7">10</span>\n<span class="u7">11</span>print(<span class="u3">1</span>)\n</pre>';
    expect(markdownOf(html)).toBe('```\nimport sys\n\nprint(1)\n```');
  });

  it('keeps numbers that are the code: a listing of numbers, numbers that skip, or a line without one', () => {
    expect(markdownOf('<pre><span class="u1">1</span>\n<span class="u1">2</span>\n<span class="u1">3</span></pre>')).toBe('```\n1\n2\n3\n```');
    expect(markdownOf('<pre><span class="u1">1</span> a\n<span class="u1">3</span> b</pre>')).toBe('```\n1 a\n3 b\n```');
    expect(markdownOf('<pre><span class="u1">1</span> a\nb\n<span class="u1">2</span> c</pre>')).toBe('```\n1 a\nb\n2 c\n```');
    expect(markdownOf('<pre><span class="u1">1</span> a\n<span class="u2">2</span> b\n<span class="u2">3</span> c</pre>')).toBe('```\n1 a\n2 b\n3 c\n```');
    // Patch file names (Pygments' number token `mi`, which marks numbers in the code too).
    expect(
      markdownOf('<pre><span class="mi">0001</span>-fix.patch\n<span class="mi">0002</span>-test.patch\n<span class="mi">0003</span>-doc.patch</pre>'),
    ).toBe('```\n0001-fix.patch\n0002-test.patch\n0003-doc.patch\n```');
    expect(markdownOf('<pre><span class="mi">1</span> = a\n<span class="mi">2</span> = b\n<span class="mi">3</span> = <span class="mi">7</span></pre>')).toBe(
      '```\n1 = a\n2 = b\n3 = 7\n```',
    );
  });
});
