import { describe, expect, it } from 'vitest';
import { textLines, type PdfTextItem } from './text-lines.js';

const run = (str: string, x: number, y: number, size = 10, width = str.length * size * 0.5): PdfTextItem => ({
  str,
  transform: [size, 0, 0, size, x, y],
  width,
  height: size,
});

describe('textLines', () => {
  it('joins runs on one baseline, adding a space only where the glyphs leave a gap', () => {
    const lines = textLines([run('Hel', 0, 100, 10, 15), run('lo', 15, 100, 10, 10), run('world', 30, 100), { type: 'endMarkedContent' }]);
    expect(lines).toEqual([{ text: 'Hello world', x: 0, y: 100, size: 10 }]);
  });

  it('keeps a superscript on its line and the line size from the dominant run', () => {
    const lines = textLines([run('Footnote marker here', 0, 100), run('1', 100, 103, 6), run('Next line', 0, 86)]);
    expect(lines.map((line) => [line.text, line.size])).toEqual([
      ['Footnote marker here1', 10],
      ['Next line', 10],
    ]);
  });

  it('drops blank runs and collapses whitespace', () => {
    const lines = textLines([run('  ', 0, 120), run('a   b', 0, 100), run(' ', 25, 100), run('c\u0000', 30, 100)]);
    expect(lines).toEqual([{ text: 'a b c', x: 0, y: 100, size: 10 }]);
  });
});
