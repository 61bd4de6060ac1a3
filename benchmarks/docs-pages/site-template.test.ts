import render from 'dom-serializer';
import type { Element } from 'domhandler';
import { findOne } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { applySiteTemplate, blockFingerprints, maximumFingerprints, type SiteTemplate, siteTemplateOf } from './site-template.js';

const menu = `<nav><ul><li><a href="/">Home</a></li><li><a href="/guide/">The user guide</a></li><li><a href="/api/">API reference</a></li></ul></nav>`;
const footer = `<footer><p>Copyright 2026 The Example Project. Licensed under the MIT license.</p></footer>`;
const newsletter = `<div class="box"><p>Subscribe to the newsletter for monthly release notes.</p></div>`;
const paragraph = (topic: string): string =>
  `<p>The ${topic} paragraph explains, in a full sentence, what the tool does and how a reader installs it on a server.</p>`;

/** A page of the site: its chrome around `main`. */
const page = (main: string): string => `<html><body><header>${menu}</header><main>${main}</main><aside>${newsletter}</aside>${footer}</body></html>`;

const mainOf = (html: string): Element => findOne((element) => element.name === 'main', parseDocument(html).children)!;

/** What a crawl would learn from its start page, with `main` standing for the extractor's choice. */
function learn(html: string): SiteTemplate {
  const document = parseDocument(html);
  const blocks = blockFingerprints(document);
  const content = findOne((element) => element.name === 'main', document.children)!;
  return siteTemplateOf(blocks, content);
}

const start = page(`<h1>Example</h1>${paragraph('welcome')}<ul><li><a href="/guide/">Read the user guide first</a></li></ul>`);

describe('learning a site template from the start page', () => {
  it('keeps the blocks outside the start page content, not the content itself', () => {
    const template = learn(start);
    const chrome = blockFingerprints(parseDocument(`<body>${menu}${footer}${newsletter}</body>`));
    expect(template.fingerprints).toEqual(expect.arrayContaining(chrome));
    expect(template.fingerprints).not.toEqual(expect.arrayContaining(blockFingerprints(parseDocument(paragraph('welcome')))));
  });

  it('is plain data that survives JSON, and is capped', () => {
    const template = learn(start);
    expect(JSON.parse(JSON.stringify(template))).toEqual(template);
    const huge = `<body>${Array.from({ length: 3000 }, (_, index) => `<p>Block number ${index} of the generated sidebar.</p>`).join('')}</body>`;
    expect(siteTemplateOf(blockFingerprints(parseDocument(huge)), parseDocument('<main></main>')).fingerprints).toHaveLength(maximumFingerprints);
  });

  it('ignores blocks too short to be told apart from content ("Next", "Edit")', () => {
    expect(blockFingerprints(parseDocument('<body><div><a href="/next">Next</a></div><p>Edit this page</p></body>'))).toEqual([]);
  });

  it('gives the same fingerprint whatever the whitespace, case and inline markup of the same text', () => {
    const one = blockFingerprints(parseDocument('<p>Copyright 2026 The  Example\n Project.</p>'));
    const two = blockFingerprints(parseDocument('<p>copyright 2026 <b>The</b> Example Project.</p>'));
    expect(one).toEqual(two);
    expect(blockFingerprints(parseDocument('<div>Copyright 2026 The Example Project.</div>'))).not.toEqual(one);
  });
});

describe('applying a site template to a later page', () => {
  const template = learn(start);

  it('removes the repeated chrome the extractor kept, and only it', () => {
    const content = mainOf(page(`<h1>Install</h1>${paragraph('first')}${newsletter}${paragraph('second')}${footer}`));
    const removal = applySiteTemplate(content, template);
    expect(removal.isCapped).toBe(false);
    expect(removal.removed.map((element) => element.name)).toEqual(['div', 'footer']);
    expect(render(content.children)).toBe(`<h1>Install</h1>${paragraph('first')}${paragraph('second')}`);
  });

  it('never removes a heading, table or code, even inside a repeated block', () => {
    const boxWithCode = `<div><p>Subscribe to the newsletter for monthly release notes.</p><pre><code>npm install example</code></pre></div>`;
    const startWithCode = page(`<h1>Example</h1>${paragraph('welcome')}`).replace('</main>', `</main>${boxWithCode}`);
    const content = mainOf(page(`<h1>Install</h1>${paragraph('first')}${paragraph('second')}${boxWithCode}`));
    const removal = applySiteTemplate(content, learn(startWithCode));
    // The block holding code stays; the paragraph inside it, repeated on its own, goes.
    expect(removal.removed.map((element) => element.name)).toEqual(['p']);
    expect(render(content.children)).toContain('<pre><code>npm install example</code></pre>');
  });

  it('does nothing to a page that is mostly the start page (an index repeating it)', () => {
    const content = mainOf(page(`${menu}${newsletter}${footer}<p>See the guide.</p>`));
    const before = render(content.children);
    const removal = applySiteTemplate(content, template);
    expect(removal).toMatchObject({ removed: [], isCapped: true });
    expect(render(content.children)).toBe(before);
  });

  it('does nothing with an empty template', () => {
    const content = mainOf(page(`${paragraph('first')}${footer}`));
    expect(applySiteTemplate(content, { fingerprints: [] })).toEqual({ removed: [], chars: 0, isCapped: false });
  });

  it('walks a deep tree without recursion', () => {
    const depth = 5_000;
    const deep = `${'<div>'.repeat(depth)}${paragraph('deep')}${'</div>'.repeat(depth)}`;
    const document = parseDocument(`<main>${deep}${footer}</main>`);
    expect(() => blockFingerprints(document)).not.toThrow();
    expect(applySiteTemplate(document, template).removed.map((element) => element.name)).toEqual(['footer']);
  });
});
