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

  it('matches a character-by-character reading on every mix of spaces, other whitespace and invisible characters', () => {
    // The reference: whitespace (no-break spaces included) becomes one space per run; invisible characters vanish without ending a run.
    const reference = (text: string): string => {
      let result = '';
      let isAfterSpace = false;
      for (const character of text) {
        if ('\u200b\u00ad\ufeff'.includes(character)) continue;
        if (' \t\n\f\r\u00a0'.includes(character)) {
          if (!isAfterSpace) result += ' ';
          isAfterSpace = true;
        } else {
          result += character;
          isAfterSpace = false;
        }
      }
      return result;
    };
    const alphabet = ['a', ' ', '\n', '\t', '\r', '\f', '\u00a0', '\u200b', '\u00ad', '\ufeff', '\v', 'é'];
    // Every string of up to four characters from the alphabet, shortest first.
    const texts = [''];
    for (let index = 0; index < texts.length && texts[index]!.length < 4; index++) {
      for (const character of alphabet) texts.push(texts[index]! + character);
    }
    for (const text of texts) expect(collapseWhitespace(text), JSON.stringify(text)).toBe(reference(text));
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
