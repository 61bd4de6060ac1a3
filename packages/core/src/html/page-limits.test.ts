import { describe, expect, it } from 'vitest';
import { boundMarkdown, boundMarkup, defaultPageLimits, type PageLimits } from './page-limits.js';
import { parseHtml } from './parse-html.js';
import { transformHtml, type HtmlTransformInput } from '../scrape/transform-html.js';

const limits: PageLimits = { maxElements: 10, maxTableCells: 4, maxMarkdownChars: 100 };

function input(html: string, extra: Partial<HtmlTransformInput> = {}): HtmlTransformInput {
  return {
    html,
    url: 'https://a.example/',
    onlyMainContent: false,
    includeTags: [],
    excludeTags: [],
    removeBase64Images: true,
    want: { markdown: true, html: false, links: false, images: false },
    ...extra,
  };
}

/** Start tags the parser builds from `html`. */
function elementCount(html: string): number {
  let count = 0;
  const walk = (nodes: ReturnType<typeof parseHtml>['children']) => {
    for (const node of nodes) {
      if (node.type === 'tag' || node.type === 'script' || node.type === 'style') count++;
      if ('children' in node) walk(node.children);
    }
  };
  walk(parseHtml(html).children);
  return count;
}

describe('page limits', () => {
  it('counts start tags, not end tags, comment markers or a lone <', () => {
    const within = `${'<b>x</b>'.repeat(10)}<!-- note --> 1 < 2`;
    expect(boundMarkup(within, limits)).toEqual({ html: within });
    const over = '<b>x'.repeat(11);
    expect(boundMarkup(over, limits)).toEqual({
      html: '<b>x'.repeat(10),
      limit: 'maxElements',
      warning: `The page has more than 10 elements (QUARRY_MAX_PAGE_ELEMENTS): only its first 40 of 44 characters of HTML (90 %) were converted.`,
    });
  });

  it('cuts before the start tag past the limit, so the prefix parses to exactly the limit', () => {
    const page = `<html><body>${'<p class="x">text</p>'.repeat(50)}</body></html>`;
    const { html, limit } = boundMarkup(page, limits);
    expect(limit).toBe('maxElements');
    expect(html.endsWith('text</p>')).toBe(true);
    expect(elementCount(html)).toBe(10);
  });

  it('counts table cells, td and th in any case, and cuts before the cell past the limit', () => {
    const within = '<table><tr><td>1<TD>2<th>3<Th>4</table>';
    expect(boundMarkup(within, limits).html).toBe(within);
    const over = '<td>1<td>2<td>3<td>4<td class=x>5';
    expect(boundMarkup(over, limits)).toMatchObject({ html: '<td>1<td>2<td>3<td>4', limit: 'maxTableCells' });
    expect(boundMarkup(over, limits).warning).toMatch(/more than 4 table cells \(QUARRY_MAX_TABLE_CELLS\)/);
    const notCells = '<tdx>1<tdx>2<tdx>3<tdx>4<tdx>5';
    expect(boundMarkup(notCells, limits).html).toBe(notCells);
  });

  it('does not count or cut at tags inside scripts, styles, comments and attribute values', () => {
    const hidden = [
      `<script>${'<b>'.repeat(20)}</script>`,
      `<STYLE>${'<i>'.repeat(20)}</style >`,
      `<!-- ${'<u>'.repeat(20)} -->`,
      `<a title="${'<s>'.repeat(20)}">a</a>`,
      `<a title='${'<q>'.repeat(20)}'>b</a>`,
      `<a title = "x>${'<em>'.repeat(20)}">c</a>`,
    ].join('');
    // script, style, a, a, a: 5 elements.
    expect(boundMarkup(hidden + '<p>'.repeat(5), limits).html).toBe(hidden + '<p>'.repeat(5));
    const cut = boundMarkup(hidden + '<p>'.repeat(6), limits);
    expect(cut).toMatchObject({ html: hidden + '<p>'.repeat(5), limit: 'maxElements' });
    // Every cut lands on a token boundary: the parsed prefix keeps every hidden construct whole.
    expect(elementCount(cut.html)).toBe(10);
  });

  it('stops counting at a script, comment or tag that runs to the end (the parser reads it as one token)', () => {
    for (const tail of [`<script>${'<b>'.repeat(20)}`, `<!-- ${'<b>'.repeat(20)}`, `<a title="${'<b>'.repeat(20)}`]) {
      const page = '<p>'.repeat(9) + tail;
      expect(boundMarkup(page, limits)).toEqual({ html: page });
    }
  });

  it('counts text between tags, not inside scripts, styles and comments, and cuts the run that passes the limit', () => {
    const quiet = `<script>${'x'.repeat(500)}</script><STYLE>${'y'.repeat(500)}</style ><!--${'z'.repeat(500)}--><p>short`;
    expect(boundMarkup(quiet, limits).html).toBe(quiet);
    const long = `<p>${'word '.repeat(30)}</p>`;
    const cut = boundMarkup(long, limits);
    expect(cut).toMatchObject({ html: `<p>${'word '.repeat(20)}`, limit: 'maxMarkdownChars' });
    expect(cut.warning).toMatch(/more than 100 characters of text \(QUARRY_MAX_MARKDOWN_CHARS\)/);
    expect(boundMarkup('word '.repeat(30), limits).html).toBe('word '.repeat(20));
  });

  it('a text cut does not split a character reference or a surrogate pair', () => {
    expect(boundMarkup(`${'x'.repeat(98)}&amp;${'y'.repeat(20)}`, limits).html).toBe('x'.repeat(98));
    expect(boundMarkup(`${'x'.repeat(99)}😀${'y'.repeat(20)}`, limits).html).toBe('x'.repeat(99));
    expect(boundMarkup(`${'x'.repeat(95)}&amp;${'y'.repeat(20)}`, limits).html).toBe(`${'x'.repeat(95)}&amp;`);
  });

  it('cuts the markdown written at the limit, with a warning', () => {
    expect(boundMarkdown('x'.repeat(100), limits)).toEqual({ markdown: 'x'.repeat(100) });
    const long = boundMarkdown('x'.repeat(101), limits);
    expect(long.markdown).toBe('x'.repeat(100));
    expect(long.warning).toMatch(/longer than 100 characters \(QUARRY_MAX_MARKDOWN_CHARS\): only its first 100 of 101/);
    expect(boundMarkdown(`${'x'.repeat(99)}😀`, limits).markdown).toBe('x'.repeat(99));
  });

  it('transformHtml converts the first part of a page past a limit and says so, with the default limits otherwise', () => {
    const table = `<table>${`<tr>${'<td>c</td>'.repeat(1_000)}</tr>`.repeat(201)}</table>`;
    const none = { markdown: false, html: false, links: false, images: false };
    expect(transformHtml(input(table, { want: none })).warning).toMatch(
      /^The page has more than 200000 table cells \(QUARRY_MAX_TABLE_CELLS\): only its first \d+ of \d+ characters of HTML \(99 %\)/,
    );
    const rows = `<h1>Changes</h1><table>${'<tr><td>c</td><td>d</td></tr>'.repeat(5)}</table><p>after</p>`;
    const output = transformHtml(input(rows, { limits }));
    expect(output.warning).toMatch(/^The page has more than 4 table cells/);
    expect(output.markdown).toBe('# Changes\n\n| c | d |\n| --- | --- |\n| c | d |');
    expect(transformHtml(input('<p>hello</p>', { limits }))).not.toHaveProperty('warning');
    expect(transformHtml(input('<p>hello</p>', { limits })).markdown).toBe('hello');
  });

  it('transformHtml cuts a page whose markdown outgrows its text (link targets) and joins both warnings', () => {
    const links = Array.from({ length: 8 }, (_, index) => `<a href="/a/long/path/${index}">l${index}</a>`).join(' ');
    const output = transformHtml(input(links, { limits: { ...limits, maxMarkdownChars: 60 } }));
    expect(output.markdown).toHaveLength(60);
    expect(output.warning).toMatch(/^The page's markdown is longer than 60 characters/);
    const both = transformHtml(input(`${links} ${'word '.repeat(30)}`, { limits: { ...limits, maxMarkdownChars: 60 } }));
    expect(both.warning).toMatch(/^The page has more than 60 characters of text.* The page's markdown is longer than 60 characters/);
  });

  it('scans a 10 MB page within the limits and leaves it whole', () => {
    const page = `<html><body>${'<div title="a > b"><span>text</span></div>'.repeat(250_000)}</body></html>`;
    expect(boundMarkup(page, { ...defaultPageLimits, maxElements: 1_000_000 }).html).toBe(page);
  });
});
