import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { extractMainContent } from './main-content.js';

const paragraph = (topic: string): string =>
  `<p>The ${topic} paragraph explains, in a full sentence, what the council decided, why it chose to, and what residents should expect over the coming months.</p>`;

/** A flat page with opaque class names: the title, `lines` under it, then the text. */
const page = (lines: string): string => `<!doctype html>
<html><head><title>Why the river town rebuilt its ferry</title></head>
<body><div class="a"><h1>Why the river town rebuilt its ferry</h1>${lines}${paragraph('first')}${paragraph('second')}${paragraph('third')}</div></body></html>`;

const textOf = (html: string): string => textContent(extractMainContent(parseDocument(html)).document.children).replace(/\s+/g, ' ');

describe('the name line before a dateline', () => {
  it('drops an unlinked name right before a dateline that holds a time, and the dateline ending on a dot', () => {
    const text = textOf(
      page(
        '<div class="b"><span class="c">DANA WHITFIELD</span><div class="d"><time datetime="2019-11-20">Updated: Nov. 20, 2019 1:35 a.m.</time></div></div>',
      ),
    );
    expect(text).not.toContain('DANA WHITFIELD');
    expect(text).not.toContain('1:35');
    expect(text).toContain('first paragraph');
  });

  it('keeps a line with a digit or a sentence before the dateline, and the steps of a list', () => {
    const kept = textOf(page('<div class="b"><span class="c">Pier 4 desk</span><div class="d">3 March 2025, 15:40</div></div>'));
    expect(kept).toContain('Pier 4 desk');
    const steps = textOf(page('<ol><li>Run the ferry check</li><li>Set the season to the next one, for example season = "2021"</li></ol>'));
    expect(steps).toContain('Run the ferry check');
  });
});
