import { isTag, type AnyNode, type Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';

function findById(nodes: AnyNode[], id: string): Element {
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (node.attribs.id === id) return node;
    try {
      return findById(node.children, id);
    } catch {
      // not in this subtree
    }
  }
  throw new Error(`no element #${id}`);
}

const page = `<html><head><base href="https://cdn.example/assets/"></head><body>
<nav id="nav"><a href="/home">Home</a></nav>
<main id="main"><h1>Title</h1><p>See <a href="guide.html">the guide</a>.</p></main>
</body></html>`;

describe('htmlToMarkdown inputs', () => {
  it('converts an HTML string', () => {
    expect(htmlToMarkdown('<p>Hello <b>there</b></p>')).toBe('Hello **there**');
  });

  it('converts a parsed document and a single element, resolving against the <base> of its document', () => {
    const document = parseDocument(page, { decodeEntities: true });
    const main = findById(document.children, 'main');
    expect(htmlToMarkdown(main, { baseUrl: 'https://site.example/' })).toBe('# Title\n\nSee [the guide](https://cdn.example/assets/guide.html).');
    expect(htmlToMarkdown(document)).toBe('[Home](https://cdn.example/home)\n\n# Title\n\nSee [the guide](https://cdn.example/assets/guide.html).');
  });

  it('converts an array of nodes in order', () => {
    const document = parseDocument(page, { decodeEntities: true });
    const nodes = [findById(document.children, 'main'), findById(document.children, 'nav')];
    expect(htmlToMarkdown(nodes)).toBe('# Title\n\nSee [the guide](https://cdn.example/assets/guide.html).\n\n[Home](https://cdn.example/home)');
  });

  it('returns an empty string when nothing is visible', () => {
    expect(htmlToMarkdown('')).toBe('');
    expect(htmlToMarkdown([])).toBe('');
    expect(htmlToMarkdown('<div hidden>x</div><script>y</script><p> &nbsp; </p>')).toBe('');
  });

  it('keeps a tab panel hidden until its tab is chosen', () => {
    const html =
      '<div role="tablist"><button role="tab">A</button></div><div role="tabpanel"><p>one</p></div><div role="tabpanel" hidden="true"><p>two</p></div>';
    expect(htmlToMarkdown(html)).toBe('A\n\none\n\ntwo');
  });

  it('removes base64 images by default and keeps them when asked', () => {
    const html = '<img src="data:image/png;base64,AAAA" alt="dot">';
    expect(htmlToMarkdown(html)).toBe('![dot](<Base64-Image-Removed>)');
    expect(htmlToMarkdown(html, { removeBase64Images: false })).toBe('![dot](data:image/png;base64,AAAA)');
  });

  it('survives malformed HTML and deep nesting', () => {
    expect(htmlToMarkdown('<p>open <b>bold <i>both</p> after')).toBe('open **bold *both***\n\nafter');
    const deep = '<div>'.repeat(2000) + 'deep' + '</div>'.repeat(2000);
    expect(htmlToMarkdown(deep)).toBe('deep');
  });

  it('indents at most 10 containers deep and 64 characters wide, so deep quotes and lists write markdown at most ~3x the page', () => {
    const quotes = htmlToMarkdown('<blockquote><p>q '.repeat(400));
    const quoteLines = quotes.split('\n').filter((line) => line.includes('q'));
    expect(quoteLines).toHaveLength(400);
    expect(quoteLines[5]).toBe(`${'> '.repeat(6)}q`);
    for (const line of quoteLines) expect(line.length).toBeLessThanOrEqual(2 * 10 + 1);
    expect(quotes.length).toBeLessThan(3 * '<blockquote><p>q '.length * 400);
    const lists = htmlToMarkdown('<ol start="999999999"><li>item '.repeat(200));
    const itemLines = lists.split('\n').filter((line) => line.includes('item'));
    expect(itemLines).toHaveLength(200);
    expect(itemLines.at(-1)).toBe(`${' '.repeat(11 * 5)}999999999. item`);
    expect(lists.length).toBeLessThan(3 * '<ol start="999999999"><li>item '.length * 200);
    const bullets = htmlToMarkdown('<ul><li>item '.repeat(200));
    expect(bullets.split('\n').at(-1)).toBe(`${'  '.repeat(10)}- item`);
    const ten = htmlToMarkdown('<ul><li>item '.repeat(11));
    expect(ten.split('\n').at(-1)).toBe(`${'  '.repeat(10)}- item`);
  });

  it('renders a table whose spans would make a grid far larger than its cells as blocks, every cell kept', () => {
    const rows = '<tr><td colspan="1000000000" rowspan="1000000000">c</td><td>d</td></tr>'.repeat(2000);
    const markdown = htmlToMarkdown(`<table><tr><th>a</th><th>b</th></tr>${rows}</table>`);
    expect(markdown.length).toBeLessThan(2000 * 10);
    expect(markdown.match(/^c$/gm)).toHaveLength(2000);
    const wide = htmlToMarkdown(`<table><tr>${'<td>w</td>'.repeat(3000)}</tr>${'<tr><td>x</td><td>y</td></tr>'.repeat(3000)}</table>`);
    expect(wide.length).toBeLessThan(12_000 * 10);
    const spanned = htmlToMarkdown('<table><tr><th>a</th><th>b</th></tr><tr><td colspan="2" rowspan="2">c</td></tr><tr></tr></table>');
    expect(spanned).toBe('| a | b |\n| --- | --- |\n| c |  |');
  });

  it('keeps a rowspan still pending under a later colspan, and overlapping spans, as before the dense span table', () => {
    const overlapping =
      '<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td rowspan="3">x</td><td>1</td><td>2</td></tr><tr><td colspan="2">3</td></tr>' +
      '<tr><td>4</td><td rowspan="2">5</td></tr><tr><td>6</td><td>7</td><td>8</td></tr></table>';
    expect(htmlToMarkdown(overlapping)).toBe(
      '| a | b | c |  |\n| --- | --- | --- | --- |\n| x | 1 | 2 |  |\n|  | 3 |  |  |\n|  | 4 | 5 |  |\n| 6 | 7 |  | 8 |',
    );
    const underColspan =
      '<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td>p</td><td rowspan="2">q</td><td>r</td></tr><tr><td colspan="3">s</td></tr><tr><td>t</td><td>u</td><td>v</td></tr></table>';
    expect(htmlToMarkdown(underColspan)).toBe('| a | b | c |  |\n| --- | --- | --- | --- |\n| p | q | r |  |\n| s |  |  |  |\n| t |  | u | v |');
    const both =
      '<table><tr><th>a</th><th>b</th></tr><tr><td rowspan="2" colspan="2">c</td><td>z</td></tr><tr><td>y</td></tr><tr><td>1</td><td>2</td></tr></table>';
    expect(htmlToMarkdown(both)).toBe('| a | b |  |\n| --- | --- | --- |\n| c |  | z |\n|  |  | y |\n| 1 | 2 |  |');
  });

  it('divides a headerless table at rows of one heading cell across it: each section its heading and a table', () => {
    const html =
      '<table><tr><td colspan="2"><h2>Types</h2></td></tr><tr><td>struct</td><td>Point</td></tr><tr><td colspan="2">&nbsp;</td></tr>' +
      '<tr><td colspan="2"><h2>Functions</h2></td></tr><tr><td>int</td><td>add (int a)</td></tr><tr><td>void</td><td>clear (void)</td></tr></table>';
    expect(htmlToMarkdown(html)).toBe(
      '## Types\n\n| struct | Point |\n| --- | --- |\n\n## Functions\n\n| int | add (int a) |\n| --- | --- |\n| void | clear (void) |',
    );
    // A heading in a cell that does not span the table still makes it a layout table.
    expect(htmlToMarkdown('<table><tr><td><h2>A</h2></td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>')).toBe('## A\n\nb\n\nc\n\nd');
  });

  it('writes a table holding code of several lines as blocks, and keeps one-line code in cells', () => {
    const html = '<table><tr><th>Example</th><th>Output</th></tr><tr><td><pre>int a;\n  a = 1;</pre></td><td><pre>1\n</pre></td></tr></table>';
    expect(htmlToMarkdown(html)).toBe('Example\n\nOutput\n\n```\nint a;\n  a = 1;\n```\n\n```\n1\n```');
    const oneLine = '<table><tr><th>Name</th><th>Use</th></tr><tr><td><pre>\nint a;\n</pre></td><td>b</td></tr></table>';
    expect(htmlToMarkdown(oneLine)).toBe('| Name | Use |\n| --- | --- |\n| `int a;` | b |');
  });

  it('does not mistake tags named like Object.prototype members for rules', () => {
    expect(htmlToMarkdown('<constructor>a</constructor> <toString>b</toString>')).toBe('a b');
  });
});

describe('code in several languages in one pre', () => {
  it('writes each code that names its language as its own block (Node docs: ES module and CommonJS twins)', () => {
    const html =
      '<pre class="with-40-chars"><input class="js-flavor-toggle" type="checkbox"><code class="language-js mjs">import a from \'a\';</code><code class="language-js cjs">const a = require(\'a\');</code><button class="copy-button">copy</button></pre>';
    expect(htmlToMarkdown(html)).toBe("```js\nimport a from 'a';\n```\n\n```js\nconst a = require('a');\n```");
  });

  it('keeps code elements without a language each as one block', () => {
    expect(htmlToMarkdown('<pre><code>one</code>\n<code>two</code></pre>')).toBe('```\none\ntwo\n```');
  });
});

describe('a code element that is a list of links', () => {
  it('writes each linked name as a code link, the separators between them as text (Javadoc inherited members)', () => {
    const html = '<p><code><a href="https://a.example/O.html#clone()">clone</a>, <a href="https://a.example/O.html#wait()">wait</a></code></p>';
    expect(htmlToMarkdown(html)).toBe('[`clone`](https://a.example/O.html#clone()), [`wait`](https://a.example/O.html#wait())');
  });

  it('writes code in pieces when words stand between the links: each link around code, the words as code spans', () => {
    const html = '<p><code><a href="https://a.example/a">Map</a> of <a href="https://a.example/b">String</a></code></p>';
    expect(htmlToMarkdown(html)).toBe('[`Map`](https://a.example/a) `of` [`String`](https://a.example/b)');
  });
});

describe('a code element of text and links', () => {
  it('keeps every link of a signature, with spaces only where the code has them (Javadoc summary grids)', () => {
    const html =
      '<div><code><a href="https://a.example/F.html#formatTo(int)">formatTo</a><wbr>(<a href="https://a.example/Formatter.html">Formatter</a>&nbsp;formatter,\n int&nbsp;flags)</code></div>';
    expect(htmlToMarkdown(html)).toBe(
      '[`formatTo`](https://a.example/F.html#formatTo(int))`(`[`Formatter`](https://a.example/Formatter.html) `formatter, int flags)`',
    );
  });

  it('keeps one code span when the code holds no link or other elements than links', () => {
    expect(htmlToMarkdown('<p><code>int&nbsp;flags</code></p>')).toBe('`int flags`');
    expect(htmlToMarkdown('<p><code><span class="k">int</span> <a href="https://a.example/b">x</a></code></p>')).toBe('`int x`');
  });
});

describe('a code element of one link in punctuation', () => {
  it('stays one code span (PostgreSQL writes an address in angle brackets so)', () => {
    expect(htmlToMarkdown('<p><code class="email">&lt;<a href="mailto:a@example.org">a@example.org</a>&gt;</code></p>')).toBe('`<a@example.org>`');
  });
});
