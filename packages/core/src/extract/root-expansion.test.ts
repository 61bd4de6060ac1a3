import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { collapsedText } from './dom-tools.js';
import { extractMainContent } from './main-content.js';

const paragraph = (topic: string): string =>
  `<p>The ${topic} part goes on for a while, with commas, clauses, and details that a reader of the story wants to keep.</p>`;

function contentText(body: string): string {
  return collapsedText(extractMainContent(parseDocument(`<html><body>${body}</body></html>`)).document);
}

describe('root expansion', () => {
  it('joins an article whose parts sit in sibling containers split by an ad slot', () => {
    const text = contentText(`<div class="wrap">
      <div class="part">${paragraph('first').repeat(6)}</div>
      <div class="slot"><a href="/ad">Sponsored offer</a></div>
      <div class="part-two">${paragraph('second').repeat(5)}</div>
    </div><div class="links"><a href="/a">Elsewhere</a> <a href="/b">Other place</a></div>`);
    expect(text).toContain('The first part');
    expect(text).toContain('The second part');
    expect(text).not.toContain('Elsewhere');
  });

  it('keeps the second half of an article split by a box of links', () => {
    const text = contentText(`<div class="wrap">
      <div class="lead">${paragraph('opening')}</div>
      <div class="part">${paragraph('first').repeat(6)}</div>
      <div class="box">Read also: <a href="/other">Another story about the same council and its ferry</a></div>
      <div class="part-two">${paragraph('second').repeat(3)}</div>
    </div>`);
    expect(text).toContain('The opening part');
    expect(text).toContain('The second part');
  });

  it('stops at a teaser list beside the article', () => {
    const teaser = (index: number): string =>
      `<li><a href="/story-${index}">Story ${index} headline</a> <span>A summary of that other story, long enough to look like prose, with a clause or two more to read.</span></li>`;
    const text = contentText(`<div class="page">
      <div class="story">${paragraph('story').repeat(6)}</div>
      <ul class="ticker">${[1, 2, 3, 4, 5].map(teaser).join('')}</ul>
    </div>`);
    expect(text).toContain('The story part');
    expect(text).not.toContain('A summary of that other story');
  });
});
