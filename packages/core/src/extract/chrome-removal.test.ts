import { parseDocument } from 'htmlparser2';
import { findOne } from 'domutils';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { chromeVerdict } from './chrome-removal.js';

function verdictOf(html: string, useClassHints = true) {
  const document = parseDocument(html);
  const element = findOne((candidate: Element) => candidate.attribs.id === 'x', document.children)!;
  return chromeVerdict(element, useClassHints);
}

describe('chromeVerdict', () => {
  it.each([
    ['<nav id="x"></nav>', 'tag:nav'],
    ['<header id="x"></header>', 'tag:header'],
    ['<div role="navigation" id="x"></div>', 'role:navigation'],
    ['<div id="x" class="cc-window cc-banner"></div>', 'class:cc-window'],
    ['<div id="x" class="onetrust-pc-dark-filter"></div>', 'class:onetrust'],
    ['<div id="x" class="share-buttons"></div>', 'class:share'],
    ['<ul id="x" class="related-posts"></ul>', 'class:related'],
    ['<section id="x" class="comments-area"></section>', 'class:comment'],
    ['<div id="x" class="theme-doc-toc-desktop"></div>', 'class:doc-toc'],
    ['<nav id="x" class="pagination-nav"></nav>', 'tag:nav'],
    ['<div id="x" class="site-footer"></div>', 'weak:footer'],
    ['<article><p>Text</p><footer id="x">Tags: <a href="/t">x</a></footer></article>', 'tag:footer'],
    ['<main><footer id="x">Was this page helpful?</footer></main>', 'tag:footer'],
    ['<article><form id="x" class="sc-a1b2"><label>Get the newsletter</label></form></article>', 'tag:form'],
  ])('%s is chrome (%s)', (html, rule) => expect(verdictOf(html)?.rule).toBe(rule));

  it.each([
    '<article><header id="x"><h1>Title</h1></header></article>',
    '<blockquote><p>Quote</p><footer id="x">Author</footer></blockquote>',
    '<article><blockquote><p>Quote</p><footer id="x">Author</footer></blockquote></article>',
    '<div id="x" class="entry-content share-enabled"></div>',
    '<div id="x" class="article-header"></div>',
    '<main id="x" class="sidebar-layout"></main>',
  ])('%s is not chrome', (html) => expect(verdictOf(html)).toBeUndefined());

  it('ignores class names in the relaxed pass', () => {
    expect(verdictOf('<div id="x" class="share-buttons"></div>', false)).toBeUndefined();
  });

  it('judges a form by its tag in the relaxed pass too', () => {
    expect(verdictOf('<form id="x" class="sc-a1b2"></form>', false)?.rule).toBe('tag:form');
  });
});
