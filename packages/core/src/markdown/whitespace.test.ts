import { describe, expect, it } from 'vitest';
import { cleanCodeText, collapseWhitespace, isWhitespaceOnly } from './whitespace.js';

describe('collapseWhitespace', () => {
  it.each([
    ['plain text', 'plain text'],
    ['a  b', 'a b'],
    [' a\n\t b ', ' a b '],
    ['\n    ', ' '],
    ['x\u00a0\u00a0y', 'x y'],
    ['a \u00a0b', 'a b'],
    ['soft\u00adhyphen', 'softhyphen'],
    ['zero\u200bwidth', 'zerowidth'],
    ['\ufeffbom', 'bom'],
    ['a \u200b b', 'a b'],
    ['', ''],
  ])('%j -> %j', (text, expected) => {
    expect(collapseWhitespace(text)).toBe(expected);
  });

  it('returns the same string when nothing changes', () => {
    const text = 'A sentence with single spaces.';
    expect(collapseWhitespace(text)).toBe(text);
  });
});

describe('isWhitespaceOnly', () => {
  it('is true for HTML whitespace only, not for no-break spaces', () => {
    expect(isWhitespaceOnly('')).toBe(true);
    expect(isWhitespaceOnly(' \n\t\r\f')).toBe(true);
    expect(isWhitespaceOnly('\u00a0')).toBe(false);
    expect(isWhitespaceOnly(' x ')).toBe(false);
  });
});

describe('cleanCodeText', () => {
  it('drops blank edge lines and trailing spaces, keeps indentation and tabs', () => {
    expect(cleanCodeText('\n\n  if (x) {   \r\n\tgo();\u00a0\n  }\n\n   \n')).toBe('  if (x) {\n\tgo();\n  }');
  });

  it('keeps blank lines inside the code', () => {
    expect(cleanCodeText('a\n\n\nb')).toBe('a\n\n\nb');
  });

  it('is empty for whitespace-only code', () => {
    expect(cleanCodeText(' \n \t\n')).toBe('');
  });
});
