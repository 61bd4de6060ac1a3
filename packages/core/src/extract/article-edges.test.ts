import { findOne, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { trimArticleEdges } from './article-edges.js';
import { extractMainContent } from './main-content.js';
import { measureText } from './text-stats.js';

const paragraph = (topic: string): string =>
  `<p>The ${topic} paragraph explains, in a full sentence, what the council decided, why it chose to, and what residents should expect over the coming months.</p>`;

/** A flat CMS page: every block directly in one wrapper, the way small sites print an article. */
const page = (before: string, after: string): string => `<!doctype html>
<html><head><title>The ferry returns | Courier</title><meta property="og:title" content="The ferry returns"></head>
<body>${before}<div class="w"><h1>The ferry returns</h1>${paragraph('first')}<h2>Costs</h2>${paragraph('second')}${paragraph('third')}${after}</div></body></html>`;

const textOf = (html: string): string => textContent(extractMainContent(parseDocument(html)).document.children).replace(/\s+/g, ' ');

describe('trimming the edges of an article', () => {
  it('says whether it removed anything, so that the caller knows whether its text stats still hold', () => {
    const trim = (html: string): boolean => {
      const document = parseDocument(html);
      const container = findOne((element) => element.attribs.class === 'w', document.children)!;
      const title = findOne((element) => element.name === 'h1', document.children)!;
      return trimArticleEdges(container, title, measureText(document));
    };
    expect(trim(page('', ''))).toBe(false);
    expect(trim(page('', '').replace('<h1>', '<ul class="c"><li><a href="/c/news">News</a></li><li><a href="/c/local">Local</a></li></ul><h1>'))).toBe(true);
  });

  it('drops a tracking tag printed as text above the title, and the category links before it', () => {
    const html = page('&lt;img height="1" width="1" style="display:none" src="https://t.example/px?id=1"/&gt;', '').replace(
      '<h1>',
      '<ul class="c"><li><a href="/c/news">News</a></li><li><a href="/c/local">Local</a></li></ul><h1>',
    );
    const text = textOf(html);
    expect(text).toContain('The ferry returns');
    expect(text).not.toContain('display:none');
    expect(text).not.toContain('Local');
  });

  it('drops a run of thumbnail teasers after the last paragraph with the heading that introduces it', () => {
    const teaser = (n: number) =>
      `<div class="t"><a href="/s/${n}"><img src="/t${n}.jpg" alt=""></a><h4><a href="/s/${n}">Story ${n} headline</a></h4><p>Blurb ${n}.</p></div>`;
    const text = textOf(page('', `<h3>Elsewhere on the site</h3><div class="g">${[1, 2, 3, 4].map(teaser).join('')}</div>`));
    expect(text).toContain('third paragraph');
    expect(text).not.toContain('Elsewhere on the site');
    expect(text).not.toContain('Story 2 headline');
  });

  it('drops a carousel of teasers between two paragraphs, past its empty decorative blocks, and keeps reference entries', () => {
    const card = (n: number) =>
      `<div class="e"><div><div class="i"></div><h2>Story ${n} headline for the carousel</h2></div><a href="/s/${n}"><span>Read the story</span></a></div><div class="d"></div><div class="d"></div>`;
    const carousel = `<div class="k"><h4>More stories</h4><section>${[1, 2, 3, 4].map(card).join('')}</section></div>`;
    const text = textOf(page('', '').replace('<h2>Costs</h2>', `${carousel}<h2>Costs</h2>`));
    expect(text).toContain('second paragraph');
    expect(text).not.toContain('Story 3 headline');
    expect(text).not.toContain('More stories');
    // A reference page's entries: a linked name, each described by a sentence.
    const entry = (n: number) => `<div class="m"><h6><a href="/api/fn${n}.html">ferry_fn${n}</a></h6><p>Returns the ferry number ${n}.</p></div>`;
    const entries = `<div class="k">${[1, 2, 3, 4].map(entry).join('')}</div>`;
    expect(textOf(page('', '').replace('<h2>Costs</h2>', `${entries}<h2>Costs</h2>`))).toContain('Returns the ferry number 3.');
  });

  it('drops an address block (postcode and phone lines) after the last paragraph', () => {
    const text = textOf(page('', '<p>Courier<br>118 Front Street<br>Millers Landing, OR 97000<br>(541) 555-0100</p>'));
    expect(text).toContain('third paragraph');
    expect(text).not.toContain('Front Street');
  });

  it('drops a link that leads nowhere (a back-to-top button) at the end of a nested wrapper', () => {
    const html = page('', '').replace(
      '</div></body>',
      '<div class="w2"><div class="w3">' + paragraph('fourth') + '</div><a href="#" class="scroll-top"><span>Back up</span></a></div></div></body>',
    );
    const text = textOf(html);
    expect(text).toContain('fourth paragraph');
    expect(text).not.toContain('Back up');
  });

  it('keeps a list of links, a details block of dates and prices, and a closing heading with its links', () => {
    const after =
      '<h3>Sources</h3><ul><li><a href="/a">County budget 2025</a> (PDF)</li><li><a href="/b">Ferry survey</a></li><li><a href="/c">Council minutes</a></li></ul>' +
      '<p>2018.04.05 ~ OPEN RUN<br>Tue – Sat 4PM<br>VIP : 60,000₩<br>R : 50,000₩</p>';
    const text = textOf(page('', after));
    expect(text).toContain('Sources');
    expect(text).toContain('Council minutes');
    expect(text).toContain('VIP : 60,000₩');
  });
});
