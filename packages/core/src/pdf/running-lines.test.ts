import { describe, expect, it } from 'vitest';
import { withoutRunningLines } from './running-lines.js';
import type { PdfLine } from './text-lines.js';

const line = (text: string, y: number): PdfLine => ({ text, x: 72, y, size: 11 });
const page = (number: number, ...body: string[]): PdfLine[] => [
  line(`Page ${number} of 4`, 40), // footers are often written first
  line('ACME Quarterly Report', 760),
  ...body.map((text, index) => line(text, 700 - index * 14)),
];

describe('withoutRunningLines', () => {
  it('drops a repeated header and a numbered footer but keeps body text', () => {
    const pages = [page(1, 'One body.'), page(2, 'Two body.'), page(3, 'Three body.'), page(4, 'Four.', 'ACME Quarterly Report', 'More.', 'End.')];
    expect(withoutRunningLines(pages).map((lines) => lines.map((each) => each.text))).toEqual([
      ['One body.'],
      ['Two body.'],
      ['Three body.'],
      ['Four.', 'ACME Quarterly Report', 'More.', 'End.'],
    ]);
  });

  it('leaves documents of fewer than three pages alone', () => {
    const pages = [page(1, 'One body.'), page(2, 'Two body.')];
    expect(withoutRunningLines(pages)).toEqual(pages);
  });

  it('keeps edge lines that repeat on fewer than half of the pages', () => {
    const pages = [page(1, 'a'), [line('x', 700)], [line('y', 700)], [line('z', 700)], [line('w', 700)], [line('v', 700)], [line('u', 700)]];
    expect(withoutRunningLines(pages)[0]?.map((each) => each.text)).toEqual(['Page 1 of 4', 'ACME Quarterly Report', 'a']);
  });
});
