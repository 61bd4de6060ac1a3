import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { trimRepeatedRows } from './article-tail.js';
import { descendantElements } from './dom-tools.js';
import { extractMainContent } from './main-content.js';
import { measureText } from './text-stats.js';

const paragraph = (topic: string): string =>
  `<p>The ${topic} paragraph explains, in a full sentence, what the council decided, why it chose to, and what residents should expect over the coming months.</p>`;
const comment = (name: string): string =>
  `<div class="x"><span>${name}</span><p>${name} wrote that the ferry, in her view, was worth every cent, and that the council should have rebuilt it ten years ago instead of waiting.</p></div>`;

/** A flat page with opaque class names: the title, the text, then `after` in the same wrapper. */
const page = (title: string, after: string): string => `<!doctype html>
<html><head><title>${title}</title></head>
<body><div class="a"><h1>${title}</h1>${paragraph('first')}${paragraph('second')}${paragraph('third')}${after}</div></body></html>`;

const textOf = (html: string): string => textContent(extractMainContent(parseDocument(html)).document.children).replace(/\s+/g, ' ');

describe('a discussion titled with the article title', () => {
  it('drops a thread whose heading quotes the title, comments and all', () => {
    const text = textOf(
      page('Why the river town rebuilt its ferry', `<h3>2 thoughts on “Why the river town rebuilt its ferry”</h3>${comment('Ann')}${comment('Bea')}`),
    );
    expect(text).toContain('third paragraph');
    expect(text).not.toContain('thoughts on');
    expect(text).not.toContain('worth every cent');
  });

  it('drops an empty discussion after the text, whose heading repeats the title unquoted', () => {
    const text = textOf(
      page(
        'Why the river town rebuilt its ferry',
        '<div class="b"><h3>No comments yet on Why the river town rebuilt its ferry</h3><a href="#form">Add a comment</a></div>',
      ),
    );
    expect(text).toContain('third paragraph');
    expect(text).not.toContain('No comments');
  });

  it('keeps a section whose heading extends the title, with its text', () => {
    const text = textOf(page('Why the river town rebuilt its ferry', `<h2>Why the river town rebuilt its ferry: the costs</h2>${paragraph('costs')}`));
    expect(text).toContain('the costs');
    expect(text).toContain('costs paragraph');
  });

  it('drops a closing card with a square portrait, and keeps a closing photo with its caption', () => {
    const long = `${paragraph('fourth')}${paragraph('fifth')}${paragraph('sixth')}`;
    const card = (width: number) =>
      `<div class="c"><div class="d"><img src="/p.jpg" width="${width}" height="80"></div><div class="e"><p>Dana Whitfield covers the valley towns and their ferries, councils and harbours.</p></div></div>`;
    const html = (width: number) => page('Why the river town rebuilt its ferry', `</div><div class="f">${long}</div><div class="g">${card(width)}`);
    expect(textOf(html(80))).not.toContain('covers the valley');
    expect(textOf(html(160))).toContain('covers the valley');
  });

  it('drops a closing box titled by a short bold line, and keeps one whose bold line is a sentence of the text', () => {
    const long = `${paragraph('fourth')}${paragraph('fifth')}${paragraph('sixth')}`;
    const box = (bold: string) =>
      `<div class="c"><div class="d"><div><strong>${bold}</strong></div>If this reporting matters to you, become a member and keep it free for every reader.</div><div><a href="/join">Join us</a></div></div>`;
    const html = (bold: string) => page('Why the river town rebuilt its ferry', `${long}${box(bold)}`);
    expect(textOf(html('Support local reporting'))).not.toContain('become a member');
    const sentence = 'The council will vote on the ferry budget again next spring, after the first full season of the new boat.';
    expect(textOf(html(sentence))).toContain('become a member');
  });

  it('keeps a short last section when a section of links of the same shape follows it (a Sphinx index page)', () => {
    const links = ['Fernet', 'X.509', 'Hazmat', 'Exceptions', 'Random'].map((name) => `<li><a href="/${name}.html">${name} reference</a></li>`).join('');
    const sections = `<section><h2>Installation</h2><p>You can install it with pip:</p><pre>$ pip install ferry</pre></section><section><h2>Layout</h2><ul>${links}</ul></section>`;
    const text = textOf(page('Why the river town rebuilt its ferry', sections));
    expect(text).toContain('pip install ferry');
  });
});

describe('a dateline under the title', () => {
  const dated = (line: string): string =>
    `<!doctype html><html><head><title>Why the river town rebuilt its ferry</title></head><body><div class="a"><h1>Why the river town rebuilt its ferry</h1><div class="b">${line}</div>${paragraph('first')}${paragraph('second')}${paragraph('third')}</div></body></html>`;

  it('drops a short line with a date that is not a sentence, and keeps a dated sentence', () => {
    expect(textOf(dated('By Dana Whitfield, 3 March 2025, 15:40'))).not.toContain('Dana Whitfield');
    expect(textOf(dated('The council voted on 3 March 2025.'))).toContain('The council voted');
  });

  it('reads an inline element standing as a line between blocks as a line, not one inside loose text', () => {
    const inline = (lines: string): string =>
      `<!doctype html><html><head><title>Why the river town rebuilt its ferry</title></head><body><div class="a"><div class="h"><h1>Why the river town rebuilt its ferry</h1>${lines}</div>${paragraph('first')}${paragraph('second')}${paragraph('third')}</div></body></html>`;
    expect(textOf(inline('<span class="c">by <a href="/d">Dana Whitfield</a> on 3 March 2025, 15:40</span>'))).not.toContain('Dana Whitfield');
    // Loose text beside it: the span is part of a line, which is not a dateline by itself.
    expect(textOf(inline('Filed under ferries <span class="c">since 3 March 2025</span> by the desk'))).toContain('since 3 March 2025');
  });
});

describe('a row printed above and below the text', () => {
  const row = '<div class="r"><div>Kopieren</div><div>Mail</div><div>Ablegen im Ordner</div></div>';
  it('drops both copies when prose lies between them, and keeps the row when it is printed once', () => {
    const framed = `<!doctype html><html><head><title>Why the river town rebuilt its ferry</title></head><body><div class="a"><h1>Why the river town rebuilt its ferry</h1>${paragraph('first')}${row}${paragraph('second')}${paragraph('third')}${row}</div></body></html>`;
    expect(textOf(framed)).not.toContain('Ablegen im Ordner');
    expect(textOf(framed.replace(`${paragraph('third')}${row}`, paragraph('third')))).toContain('Ablegen im Ordner');
  });

  it('keeps rows whose copies have no prose between them, and drops those that do', () => {
    const numbered = (index: number): string => row.replace('Kopieren', `Kopieren ${index}`);
    const body = `${paragraph('first')}${numbered(1)}${numbered(1)}${numbered(2)}${paragraph('second')}${numbered(2)}${paragraph('third')}`;
    const text = textOf(
      `<!doctype html><html><head><title>T</title></head><body><div class="a"><h1>Why the river town rebuilt its ferry</h1>${body}</div></body></html>`,
    );
    expect(text).toContain('Kopieren 1');
    expect(text).not.toContain('Kopieren 2');
  });

  // Bounded by the test timeout: each group once read the flow from its first copy to its last
  // (an indexOf and a slice per group): 10,000 groups of two a page apart took 9 s, 20,000 over 30 s.
  it('reads 20,000 rows, each printed twice a page apart, in one pass', () => {
    const count = 20_000;
    const half = Array.from({ length: count }, (_, index) => `${row.replace('Kopieren', `Kopieren ${index}`)}<p>prose</p>`).join('');
    const document = parseDocument(`<div>${half}${half}</div>`);
    const stats = measureText(document);
    const removed = trimRepeatedRows(stats, descendantElements(document), (element) => element.name === 'p');
    expect(removed).toHaveLength(2 * count);
  });
});

describe('a trailing heading with nothing under it', () => {
  it('drops a short section title after the text whose list is empty', () => {
    const text = textOf(page('Why the river town rebuilt its ferry', '<section class="b"><h2>More news</h2><ul class="c"></ul></section>'));
    expect(text).toContain('third paragraph');
    expect(text).not.toContain('More news');
  });

  it('keeps a closing line set as a heading (a sentence) and a heading with text under it', () => {
    const closing = textOf(page('Why the river town rebuilt its ferry', '<h4>The ferry sails again in May.</h4>'));
    expect(closing).toContain('sails again in May');
    const section = textOf(page('Why the river town rebuilt its ferry', `<h2>Next steps</h2>${paragraph('closing')}`));
    expect(section).toContain('Next steps');
    expect(section).toContain('closing paragraph');
  });
});
