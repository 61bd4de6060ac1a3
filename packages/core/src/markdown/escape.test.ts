import { describe, expect, it } from 'vitest';
import { backtickFence, codeSpan, escapeInline, escapeLineStart, escapeTableCell } from './escape.js';

describe('escapeInline', () => {
  it.each([
    ['plain words, 3.14 and e.g. stay', 'plain words, 3.14 and e.g. stay'],
    ['snake_case_name', 'snake_case_name'],
    ['__init__', '\\_\\_init\\_\\_'],
    ['_leading and trailing_', '\\_leading and trailing\\_'],
    ['naïve_ünïcode', 'naïve_ünïcode'],
    ['2 * 3', '2 * 3'],
    ['a*b', 'a\\*b'],
    ['*emphasis*', '\\*emphasis\\*'],
    ['`tick`', '\\`tick\\`'],
    ['[1]', '\\[1]'],
    ['a < b', 'a < b'],
    ['<div>', '\\<div>'],
    ['</p>', '\\</p>'],
    ['<!-- x', '\\<!-- x'],
    ['AT&T & co', 'AT&T & co'],
    ['&copy; &#169; &#xA9;', '\\&copy; \\&#169; \\&#xA9;'],
    ['C:\\Users\\me', 'C:\\Users\\me'],
    ['\\*', '\\\\\\*'],
    ['end\\', 'end\\\\'],
    ['~approx', '~approx'],
    ['~~struck~~', '\\~\\~struck\\~\\~'],
    ['a | b', 'a | b'],
  ])('%j -> %j', (text, expected) => {
    expect(escapeInline(text, false)).toBe(expected);
  });

  it('escapes closing brackets only in link text', () => {
    expect(escapeInline('see [1]', false)).toBe('see \\[1]');
    expect(escapeInline('see [1]', true)).toBe('see \\[1\\]');
  });
});

describe('escapeLineStart', () => {
  it.each([
    ['# heading', '\\# heading'],
    ['###### six', '\\###### six'],
    ['####### seven is text', '####### seven is text'],
    ['#hashtag', '#hashtag'],
    ['#', '\\#'],
    ['> quote', '\\> quote'],
    ['- item', '\\- item'],
    ['---', '\\---'],
    ['-dash', '-dash'],
    ['+ plus', '\\+ plus'],
    ['+1', '+1'],
    ['===', '\\==='],
    ['= x', '\\= x'],
    ['1. one', '1\\. one'],
    ['2019. A year', '2019\\. A year'],
    ['3) three', '3\\) three'],
    ['1.5 million', '1.5 million'],
    ['1234567890. ten digits', '1234567890. ten digits'],
    ['plain', 'plain'],
  ])('%j -> %j', (text, expected) => {
    expect(escapeLineStart(text)).toBe(expected);
  });
});

describe('code spans and fences', () => {
  it('fences inline code with more backticks than it holds', () => {
    expect(codeSpan('npm i')).toBe('`npm i`');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('a``b')).toBe('```a``b```');
    expect(codeSpan('`tick`')).toBe('`` `tick` ``');
  });

  it('makes block fences longer than any backtick run', () => {
    expect(backtickFence('plain', 3)).toBe('```');
    expect(backtickFence('```js\n```', 3)).toBe('````');
    expect(backtickFence('`````', 3)).toBe('``````');
  });

  it('escapes pipes for table cells, inside code too', () => {
    expect(escapeTableCell('a | b `c|d`')).toBe('a \\| b `c\\|d`');
    expect(escapeTableCell('no pipes')).toBe('no pipes');
  });
});
