import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { extractMainContent } from './main-content.js';

const paragraph = (topic: string): string =>
  `<p>The ${topic} paragraph explains, in a full sentence, what the council decided, why it chose to, and what residents should expect over the coming months.</p>`;

/** A flat CMS page with opaque class names: every block directly in one wrapper. */
const page = (middle: string, after: string): string => `<!doctype html>
<html><head><title>The ferry returns | Courier</title></head>
<body><div class="u1"><h1>The ferry returns</h1>${paragraph('first')}${middle}${paragraph('second')}${paragraph('third')}${after}</div></body></html>`;

const textOf = (html: string): string => textContent(extractMainContent(parseDocument(html)).document.children).replace(/\s+/g, ' ');

const shareHref = 'https://social.example/share?u=https%3A%2F%2Fcourier.example%2Fferry';

describe('share and page-action bars', () => {
  it('drops a bar of share, mail and print buttons between the paragraphs, with its label', () => {
    const bar = `<p class="u2">Share this:</p><ul class="u3"><li><a href="${shareHref}">Post</a></li><li><a href="mailto:?subject=Ferry">Mail</a></li><li><a href="#">Print</a></li></ul>`;
    const text = textOf(page(bar, ''));
    expect(text).toContain('second paragraph');
    expect(text).not.toContain('Share this');
    expect(text).not.toContain('Print');
  });

  it('drops a date and a "Share" word beside buttons with no address', () => {
    const bar =
      '<ul class="u3"><li><time>1 May 2021</time></li><li>Share</li><li><a class="u4">Send</a></li><li><a href="javascript:void(0)">Print</a></li></ul>';
    const text = textOf(page('', bar));
    expect(text).toContain('third paragraph');
    expect(text).not.toContain('Share');
    expect(text).not.toContain('Send');
  });

  it('keeps a line with a link to a page, a sentence around a script link, and a credit before a bar', () => {
    const line = '<p class="u5">Timetable: <a href="#">print</a> or <a href="/ferry/timetable">view online</a></p>';
    const sentence = '<p class="u6">Tap <a href="#">here</a> and <a href="#">there</a> to open the map.</p>';
    const credit = `<div class="u7">Agencies</div><div class="u8"><a href="${shareHref}">Post</a><a href="#">Print</a></div>`;
    const text = textOf(page(line, sentence + credit));
    expect(text).toContain('view online');
    expect(text).toContain('to open the map');
    expect(text).toContain('Agencies');
    expect(text).not.toContain('Post');
  });
});
