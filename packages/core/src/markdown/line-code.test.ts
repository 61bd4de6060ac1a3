import { findAll } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { wrapLineCode } from '../html/line-code.js';
import { htmlToMarkdown } from './index.js';

const markdownOf = (html: string): string => htmlToMarkdown(parseDocument(html).children, { baseUrl: 'https://docs.example.com/' });

/** Doxygen's shape, with names made meaningless: the rule reads the layout, not the class. */
const fragment =
  '<div class="u1"><div class="u2"><span class="u3">int</span> main()</div>\n<div class="u2">{</div>\n<div class="u2"> </div>\n' +
  '<div class="u2">  <a class="u4" href="m.html">MatrixXd</a> m(2,2);</div>\n<div class="u2">}</div>\n' +
  '<div class="u5"><div class="u6">Eigen::Matrix</div><div class="u6">The matrix class.</div></div></div>';

describe('code written one division per line', () => {
  it('is a code block when lines are indented unevenly, and what follows the lines stays blocks', () => {
    expect(markdownOf(fragment)).toBe('```\nint main()\n{\n\n  MatrixXd m(2,2);\n}\n```\n\nEigen::Matrix\n\nThe matrix class.');
  });

  it('leaves out a line-number gutter', () => {
    const html = '<div><div><span>1</span>{</div><div><span>2</span>  a = 1;</div><div><span>3</span>}</div></div>';
    expect(markdownOf(html)).toBe('```\n{\n  a = 1;\n}\n```');
  });

  it('leaves out the gutter of its lines when blocks without numbers follow them (hover tooltips)', () => {
    const html =
      '<div><div><span>1</span>{</div><div><span>2</span>  a = 1;</div><div><span>3</span>}</div>' +
      '<div class="tip"><div>a</div><div>The variable.</div></div></div>';
    expect(markdownOf(html)).toBe('```\n{\n  a = 1;\n}\n```\n\na\n\nThe variable.');
  });

  it('keeps divisions that do not read as code as blocks: no indentation, all indented, indented by no-break spaces, one line, lines broken inside', () => {
    expect(markdownOf('<div><div>12 High Street</div><div>Springfield</div></div>')).toBe('12 High Street\n\nSpringfield');
    expect(markdownOf('<div><div>  a</div><div>  b</div></div>')).toBe('a\n\nb');
    expect(markdownOf('<div><div>Hello</div><div>&nbsp;&nbsp;&nbsp;World</div></div>')).toBe('Hello\n\nWorld');
    expect(markdownOf('<div><div>  a()</div></div>')).toBe('a()');
    expect(markdownOf('<div><div>a</div><div>\n  b</div></div>')).toBe('a\n\nb');
    expect(markdownOf('<div><div>a</div><div>  b<p>c</p></div></div>')).toBe('a\n\nb\n\nc');
  });

  it('is put in a pre of its own before the extraction, blank lines and trailing blocks kept', () => {
    const document = parseDocument(`<body>${fragment}</body>`);
    wrapLineCode(document);
    expect(htmlToMarkdown(document.children, { baseUrl: 'https://docs.example.com/' })).toBe(
      '```\nint main()\n{\n\n  MatrixXd m(2,2);\n}\n```\n\nEigen::Matrix\n\nThe matrix class.',
    );
    const pres = findAll((element) => element.name === 'pre', document.children);
    expect(pres).toHaveLength(1);
    expect(pres[0]!.parent && 'name' in pres[0]!.parent ? pres[0]!.parent.attribs.class : '').toBe('u1');
  });

  it('makes code of one-line and flush runs written in the classes of a run that reads as code, not of runs in other classes', () => {
    const document = parseDocument(
      `<body>${fragment}<div class="u1"><div class="u2">g++ main.cpp</div></div><div class="u1"><div class="u2">a = 1;</div><div class="u2">b = 2;</div></div>` +
        '<div class="u7"><div class="u2">12 High Street</div><div class="u2">Springfield</div></div></body>',
    );
    wrapLineCode(document);
    expect(htmlToMarkdown(document.children, { baseUrl: 'https://docs.example.com/' })).toContain(
      '```\ng++ main.cpp\n```\n\n```\na = 1;\nb = 2;\n```\n\n12 High Street\n\nSpringfield',
    );
  });

  it('leaves out the hover cards of the code links that follow the lines, and keeps blocks that open otherwise', () => {
    const html =
      '<div><div>{</div><div>  <a href="m.html">Matrix</a> m;</div><div>}</div>' +
      '<div><div><a href="m.html">Eigen::Matrix</a></div><div>The matrix class.</div></div>' +
      '<div><div>See <a href="m.html">Matrix</a>.</div></div></div>';
    expect(markdownOf(html)).toBe('```\n{\n  Matrix m;\n}\n```\n\nSee [Matrix](https://docs.example.com/m.html).');
    const document = parseDocument(`<body>${html}</body>`);
    wrapLineCode(document);
    expect(htmlToMarkdown(document.children, { baseUrl: 'https://docs.example.com/' })).toBe(
      '```\n{\n  Matrix m;\n}\n```\n\nSee [Matrix](https://docs.example.com/m.html).',
    );
  });
});
