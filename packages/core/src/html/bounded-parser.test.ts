import render from 'dom-serializer';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { transformHtml } from '../scrape/transform-html.js';
import { DepthBoundParser, maxOpenElements, parseBoundedDocument } from './bounded-parser.js';
import { tagNames } from './tag-names.js';

/** The depth of the deepest element under `node`, iteratively. */
function treeDepth(root: { children?: unknown[] }): number {
  let deepest = 0;
  const pending: [{ children?: unknown[] }, number][] = [[root, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of node.children ?? []) pending.push([child as { children?: unknown[] }, depth + 1]);
  }
  return deepest;
}

/** Text, comment data and attributes of a tree, in order: what decoding character references changes. */
function treeText(node: { type?: string; name?: string; data?: string; attribs?: object; children?: unknown[] }): string {
  const own = node.data ?? `<${node.name ?? node.type} ${JSON.stringify(node.attribs ?? {})}>`;
  return own + (node.children ?? []).map((child) => treeText(child as typeof node)).join('|');
}

/** Start and end offsets of every node, in order. */
function treeIndices(node: { startIndex?: number | null; endIndex?: number | null; children?: unknown[] }): string {
  return `${node.startIndex}-${node.endIndex}(${(node.children ?? []).map((child) => treeIndices(child as typeof node)).join(',')})`;
}

describe('DepthBoundParser', () => {
  it('decodes character references as htmlparser2’s tokenizer does, in text, titles and attribute values, and nowhere else', () => {
    const references = ['&amp;', '&amp', '&ampx', '&amp=', '&notin', '&noti', '&notin;', '&copy=', '&copy', '&#', '&#65', '&#x41;', '&#0;', '&#x80;'];
    references.push('&#1114112;', '&lt', '&AMP', '&unknown;', '&;', '&&amp;', '&NotNestedLessLess;', '&#65a', '&amp;amp;', '&');
    const contexts = [
      (r: string) => `a${r}b`,
      (r: string) => `x ${r}< y<b>${r}</b>${r}`,
      (r: string) => `<a href="${r}" title='${r}x' data-x=${r}>t</a><p id=${r}>`,
      (r: string) => `<title>${r} <${r} </ti${r}</title><svg><title>${r}</title></svg>`,
      (r: string) => `<script>${r}</script><style>${r}</style><textarea>${r}</textarea><xmp>${r}</xmp><!-- ${r} -->`,
      (r: string) => `<p>${r}`,
      (r: string) => `<title>${r}`,
    ];
    const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
    for (const reference of references) {
      for (const context of contexts) {
        const html = context(reference);
        expect(treeText(parseBoundedDocument(html, options)), html).toBe(treeText(parseDocument(html, options)));
      }
    }
  });

  it('builds the same tree as htmlparser2 for a page nested less deeply than the bound', () => {
    const html =
      '<html><body><div><p>One <b>two <i>three</i></b><p>four<ul><li>a<li>b</ul><table><tr><td>c<td>d</table>' +
      '<svg><path d="M0"/><title>t</title></svg><br></br></p></div></body></html>';
    const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
    expect(render(parseBoundedDocument(html, options))).toBe(render(parseDocument(html, options)));
  });

  it('finds the ends of text, attribute values, comments and declarations where htmlparser2 does, found or cut off by the end of the page', () => {
    const pages = [
      'text only',
      'a<b>b</b>c',
      '<a href="x" title=\'y\' data-z=w>t</a>tail',
      '<a href="cut off',
      "<a title='cut off",
      '<!-- comment --><p>x<!-- cut off',
      '<!doctype html><?pi x?><!decl',
      '</p >text</b',
      '<script>if (a < b) x()</script><style>p>a{}</style><textarea>a<b</textarea>',
      '<p>x<',
      '<',
      '',
    ];
    const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, withStartIndices: true, withEndIndices: true };
    for (const html of pages) {
      for (const decodeEntities of [true, false]) {
        const document = parseBoundedDocument(html, { ...options, decodeEntities });
        const expected = parseDocument(html, { ...options, decodeEntities });
        expect(render(document), html).toBe(render(expected));
        expect(treeText(document), html).toBe(treeText(expected));
        expect(treeIndices(document), html).toBe(treeIndices(expected));
      }
    }
  });

  it('names elements as htmlparser2 does, known and unknown, in any case', () => {
    const html = '<DIV><My-Widget>x</My-Widget><P>y<svg><foreignObject><b>z</b></foreignObject></svg><Blink>w</Blink></div>';
    const options = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true };
    expect(render(parseBoundedDocument(html, options))).toBe(render(parseDocument(html, options)));
    for (const [name, copy] of tagNames) expect(copy, name).toBe(name.toLowerCase());
  });

  it('parses 200,000 nested elements in linear time: past the bound, the next element is the innermost one’s sibling', () => {
    // htmlparser2 alone shifts its whole open-element array at every tag: this input took minutes.
    const depth = 200_000;
    const html = `<body>${'<div>x'.repeat(depth)}${'</div>'.repeat(depth)}<p>after</p></body>`;
    const document = parseBoundedDocument(html);
    expect(treeDepth(document)).toBeLessThanOrEqual(maxOpenElements + 2);
    const text = render(document).replace(/<[^>]+>/g, '');
    expect(text).toBe(`${'x'.repeat(depth)}after`);
  }, 30_000);

  it('closes every element it opens, for streaming handlers too', () => {
    let open = 0;
    let deepest = 0;
    const parser = new DepthBoundParser({
      onopentag: () => {
        open++;
        deepest = Math.max(deepest, open);
      },
      onclosetag: () => {
        open--;
      },
    });
    parser.end('<span>'.repeat(50_000));
    expect(open).toBe(0);
    expect(deepest).toBe(maxOpenElements);
  }, 30_000);

  it('converts a page of 10,000 unclosed nested tables', () => {
    const html = `<body>${'<table><tr><td>cell '.repeat(10_000)}</body>`;
    const output = transformHtml({
      html,
      url: 'http://127.0.0.1/nested',
      onlyMainContent: true,
      includeTags: [],
      excludeTags: [],
      removeBase64Images: true,
      want: { markdown: true, html: false, links: false, images: false },
    });
    expect(output.markdown).toContain('cell');
  }, 30_000);
});
