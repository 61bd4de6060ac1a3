import { parseDocument } from 'htmlparser2';
import { findOne, removeElement } from 'domutils';
import { describe, expect, it } from 'vitest';
import { discountStats, linkDensity, measureProse, measureText, measureTotalText } from './text-stats.js';

describe('measureText', () => {
  const document = parseDocument(
    '<div id="d"><p>Hello,   world. <a href="/x">Link text</a></p><ul><li><a href="/1">One</a></li></ul><p>漢字かな</p><img src="a.png"></div>',
  );
  const div = findOne((element) => element.attribs.id === 'd', document.children)!;
  const stats = measureText(document);

  it('collapses whitespace, weights CJK characters, counts commas, links and structure', () => {
    const divStats = stats.get(div)!;
    // whitespace at the edges of a text node carries no weight; each CJK character weighs 3
    expect(divStats.text).toBe('Hello, world.Link text'.length + 'One'.length + 4 * 3);
    expect(divStats.linkText).toBe('Link text'.length + 'One'.length);
    expect(divStats.commas).toBe(1);
    expect(divStats.blocks).toBe(5);
    expect(divStats.images).toBe(1);
    expect(divStats.media).toBe(1);
    expect(linkDensity(divStats)).toBeCloseTo(12 / 37);
  });

  it('does not count a named anchor as a link: DocBook writes section titles inside one', () => {
    const page = parseDocument('<h2 id="h"><a id="setup">Setup</a></h2><p id="p"><a name="n">Here</a> and <a onclick="go()">there</a></p>');
    const pageStats = measureText(page);
    expect(pageStats.get(findOne((element) => element.attribs.id === 'h', page.children)!)!.linkText).toBe(0);
    // an `a` with neither `href` nor a name is a script's link: still link text
    expect(pageStats.get(findOne((element) => element.attribs.id === 'p', page.children)!)!.linkText).toBe('there'.length);
  });

  it('gives the same total as the per-element stats, without them', () => {
    expect(measureTotalText(div)).toBe(stats.get(div)!.text);
  });

  it('treats non-ASCII spaces, commas and Hangul like the ASCII path does', () => {
    const page = parseDocument('<p id="p">\u00a0가나,\u3000\u060cx\u200b</p>');
    const paragraph = findOne((element) => element.attribs.id === 'p', page.children)!;
    // Hangul weighs 2; the ideographic space collapses to one character; edge spaces weigh nothing
    expect(measureText(page).get(paragraph)).toMatchObject({ text: 8, commas: 2, linkText: 0 });
  });
});

describe('measureProse', () => {
  it('counts paragraphs of sentence length and short cells, not link-only items', () => {
    const document = parseDocument(
      '<div id="d"><p>A sentence that is long enough to be prose.</p><p>Too short.</p>' +
        '<ul><li><a href="/1">A link that is long enough but only a link</a></li></ul>' +
        '<table><tr><td>3 kg</td></tr></table></div>',
    );
    const div = findOne((element) => element.attribs.id === 'd', document.children)!;
    const prose = measureProse(document, measureText(document));
    expect(prose.get(div)).toBe('A sentence that is long enough to be prose.'.length + '3 kg'.length);
  });

  it('gives with stats kept current after removals what it gives with the tree measured again', () => {
    const document = parseDocument(
      '<div id="d">Direct text of the division, long enough, <span>and inline</span><nav id="n">A menu, <a href="/1">one</a></nav>' +
        ' more direct text after the menu.<p>A paragraph, <em>emphasised</em>, of sentence length.</p></div>',
    );
    const stats = measureText(document);
    const nav = findOne((element) => element.attribs.id === 'n', document.children)!;
    discountStats(nav, stats, document);
    removeElement(nav);
    expect([...measureProse(document, stats)]).toEqual([...measureProse(document, measureText(document))]);
  });
});
