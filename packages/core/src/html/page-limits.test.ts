import { describe, expect, it } from 'vitest';
import { checkMarkdown, checkMarkup, defaultPageLimits, type PageLimits } from './page-limits.js';
import { transformHtml } from '../scrape/transform-html.js';

const limits: PageLimits = { maxElements: 10, maxTableCells: 4, maxMarkdownChars: 100 };

function failure(run: () => void): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('page limits', () => {
  it('counts start tags, not end tags, comment markers or a lone <', () => {
    expect(() => checkMarkup(`${'<b>x</b>'.repeat(10)}<!-- note --> 1 < 2`, limits)).not.toThrow();
    expect(failure(() => checkMarkup('<b>x'.repeat(11), limits))).toMatchObject({
      name: 'TargetError',
      kind: 'too-large',
      details: { limit: 'maxElements', max: 10 },
    });
  });

  it('counts table cells, td and th in any case', () => {
    expect(() => checkMarkup('<table><tr><td>1<TD>2<th>3<Th>4</table>', limits)).not.toThrow();
    expect(failure(() => checkMarkup('<td>1<td>2<td>3<td>4<td class=x>5', limits))).toMatchObject({
      kind: 'too-large',
      message: expect.stringContaining('more than 4 table cells'),
    });
    expect(() => checkMarkup('<tdx>1<tdx>2<tdx>3<tdx>4<tdx>5', limits)).not.toThrow();
  });

  it('counts text between tags, not inside scripts and styles', () => {
    expect(() => checkMarkup(`<script>${'x'.repeat(500)}</script><STYLE>${'y'.repeat(500)}</style ><p>short`, limits)).not.toThrow();
    expect(failure(() => checkMarkup(`<p>${'word '.repeat(30)}`, limits))).toMatchObject({ details: { limit: 'maxMarkdownChars' } });
    expect(failure(() => checkMarkup('word '.repeat(30), limits))).toMatchObject({ details: { limit: 'maxMarkdownChars' } });
  });

  it('measures the markdown written', () => {
    expect(() => checkMarkdown('x'.repeat(100), limits)).not.toThrow();
    expect(failure(() => checkMarkdown('x'.repeat(101), limits))).toMatchObject({ kind: 'too-large' });
  });

  it('transformHtml stops at a limit before parsing, with the default limits otherwise', () => {
    const table = `<table>${`<tr>${'<td>c</td>'.repeat(1_000)}</tr>`.repeat(250)}</table>`;
    expect(
      failure(() =>
        transformHtml({
          html: table,
          url: 'https://a.example/',
          onlyMainContent: false,
          includeTags: [],
          excludeTags: [],
          removeBase64Images: true,
          want: { markdown: true, html: false, links: false, images: false },
        }),
      ),
    ).toMatchObject({
      details: { limit: 'maxTableCells', max: defaultPageLimits.maxTableCells },
    });
    const small = transformHtml({
      html: '<p>hello</p>',
      url: 'https://a.example/',
      onlyMainContent: false,
      includeTags: [],
      excludeTags: [],
      removeBase64Images: true,
      want: { markdown: true, html: false, links: false, images: false },
      limits,
    });
    expect(small.markdown).toBe('hello');
  });

  it('scans a 10 MB page in well under a second', () => {
    const page = `<html><body>${'<div><span>text</span></div>'.repeat(350_000)}</body></html>`;
    const started = performance.now();
    expect(() => checkMarkup(page, { ...defaultPageLimits, maxElements: 1_000_000 })).not.toThrow();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
