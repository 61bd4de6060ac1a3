import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/parse-html.js';
import { extractLinks } from './link-extract.js';

const links = (html: string, pageUrl = 'https://example.com/docs/page') => extractLinks(parseHtml(html), pageUrl);

describe('extractLinks', () => {
  it('resolves relative, root-relative, protocol-relative and absolute hrefs against the page', () => {
    expect(
      links(`
        <a href="next">next</a>
        <a href="../up">up</a>
        <a href="/root">root</a>
        <a href="//cdn.example.com/x">cdn</a>
        <a href="http://other.com/a">abs</a>
        <a href="?page=2">query</a>
      `),
    ).toEqual([
      'https://example.com/docs/next',
      'https://example.com/up',
      'https://example.com/root',
      'https://cdn.example.com/x',
      'http://other.com/a',
      'https://example.com/docs/page?page=2',
    ]);
  });

  it('resolves against the first <base href>, even when it follows the links', () => {
    expect(
      links(`
        <a href="a">a</a>
        <head><base href="https://static.example.com/v2/"><base href="/ignored/"></head>
        <a href="b">b</a>
        <a href="/c">c</a>
      `),
    ).toEqual(['https://static.example.com/v2/a', 'https://static.example.com/v2/b', 'https://static.example.com/c']);
  });

  it('resolves a relative <base href> against the page and ignores an unusable one', () => {
    expect(links('<base href="/v3/"><a href="x">x</a>')).toEqual(['https://example.com/v3/x']);
    expect(links('<base href="javascript:alert(1)"><a href="x">x</a>')).toEqual(['https://example.com/docs/x']);
    expect(links('<base href="http://[bad"><a href="x">x</a>')).toEqual(['https://example.com/docs/x']);
    expect(links('<base target="_blank"><base href="/v4/"><a href="x">x</a>')).toEqual(['https://example.com/v4/x']);
  });

  it('decodes entities in hrefs (done by the parser)', () => {
    expect(links('<a href="/search?q=a&amp;page=2">1</a><a href="/caf&eacute;">2</a><a href="/x?a=1&lt;2">3</a><a href="/&#x41;">4</a>')).toEqual([
      'https://example.com/search?q=a&page=2',
      'https://example.com/caf%C3%A9',
      'https://example.com/x?a=1%3C2',
      'https://example.com/A',
    ]);
  });

  it('skips javascript:, mailto:, tel:, data: whatever their case or embedded whitespace, and empty hrefs', () => {
    expect(
      links(`
        <a href="javascript:void(0)">1</a>
        <a href="JavaScript:go()">2</a>
        <a href="java&#10;script:alert(1)">3</a>
        <a href="mailto:a@example.com">4</a>
        <a href="MAILTO:b@example.com">5</a>
        <a href="tel:+123">6</a>
        <a href="data:text/html,hi">7</a>
        <a href="">8</a>
        <a href="   ">9</a>
        <a>10</a>
        <a href="http://[broken">11</a>
        <a href="/kept">12</a>
        <a href="ftp://example.com/f">13</a>
      `),
    ).toEqual(['https://example.com/kept', 'ftp://example.com/f']);
  });

  it('keeps fragments (the frontier decides about anchors) and deduplicates, keeping the first', () => {
    expect(
      links('<a href="/a">1</a><a href="#top">2</a><a href="/a">3</a><a href="https://example.com/a">4</a><a href="/#/route">5</a><a href="/a/">6</a>'),
    ).toEqual(['https://example.com/a', 'https://example.com/docs/page#top', 'https://example.com/#/route', 'https://example.com/a/']);
  });

  it('takes <area href>, not <link>, <img src>, <script src> or <form action>', () => {
    expect(
      links(`
        <head><link rel="next" href="/page/2"><link rel="alternate" href="/feed.xml"><script src="/app.js"></script></head>
        <map><area href="/region" shape="rect"></map>
        <img src="/img.png"><form action="/submit"></form>
        <svg><a href="/in-svg">svg</a></svg>
        <template><a href="/in-template">t</a></template>
      `),
    ).toEqual(['https://example.com/region', 'https://example.com/in-svg', 'https://example.com/in-template']);
  });

  it('walks deep documents without recursion and keeps document order', () => {
    const depth = 20_000;
    const html = `${'<div>'.repeat(depth)}<a href="/deep">deep</a>${'</div>'.repeat(depth)}<a href="/after">after</a>`;
    expect(links(html)).toEqual(['https://example.com/deep', 'https://example.com/after']);
  });

  it('trims whitespace around hrefs and handles an unparseable page URL by keeping absolute links only', () => {
    expect(links('<a href="  /spaced  ">s</a>')).toEqual(['https://example.com/spaced']);
    expect(links('<a href="/relative">r</a><a href="https://example.com/abs">a</a>', 'not a url')).toEqual(['https://example.com/abs']);
  });
});
