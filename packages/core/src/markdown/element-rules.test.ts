import { describe, expect, it } from 'vitest';
import { ELEMENT_RULES, htmlToMarkdown, type ElementRule } from './index.js';

// Rules of one's own per element, through the public surface only (what a library user has).
describe('elementRules overrides', () => {
  it('adds a rule for an element the table leaves inline', () => {
    const mark: ElementRule = (element, converter) => converter.renderWrapped(element, '==', '==');
    expect(htmlToMarkdown('<p>a <mark>hot</mark> take</p>')).toBe('a hot take');
    expect(htmlToMarkdown('<p>a <mark>hot</mark> take</p>', { elementRules: { mark } })).toBe('a ==hot== take');
  });

  it('replaces a built-in rule, which it can still call', () => {
    const img: ElementRule = (element, converter) => {
      if (element.attribs.alt) ELEMENT_RULES.img!(element, converter);
    };
    const html = '<p><img src="/a.png" alt="kept"><img src="/b.png"></p>';
    expect(htmlToMarkdown(html, { baseUrl: 'https://site.test/' })).toContain('b.png');
    expect(htmlToMarkdown(html, { baseUrl: 'https://site.test/', elementRules: { img } })).toBe('![kept](https://site.test/a.png)');
  });

  it('removes a rule with null: the element becomes an inline container', () => {
    expect(htmlToMarkdown('<h2>Title</h2>')).toBe('## Title');
    expect(htmlToMarkdown('<h2>Title</h2>', { elementRules: { h2: null } })).toBe('Title');
    expect(htmlToMarkdown('<p><strong>bold</strong></p>', { elementRules: { STRONG: null } })).toBe('bold');
  });

  it('renders a block of its own through the converter and the writer', () => {
    const aside: ElementRule = (element, converter) => {
      converter.openBlock();
      converter.writer.appendRaw('> **Note:** ');
      converter.walkChildren(element);
      converter.closeBlock();
    };
    expect(htmlToMarkdown('<p>Before</p><aside>mind the gap</aside><p>After</p>', { elementRules: { aside } })).toBe(
      'Before\n\n> **Note:** mind the gap\n\nAfter',
    );
  });

  it('leaves the shared table untouched and refuses a value that is not a rule, naming the tag', () => {
    htmlToMarkdown('<h2>x</h2>', { elementRules: { h2: null } });
    expect(htmlToMarkdown('<h2>x</h2>')).toBe('## x');
    expect(Object.isFrozen(ELEMENT_RULES)).toBe(true);
    expect(() => htmlToMarkdown('<p>x</p>', { elementRules: { p: 'bold' as unknown as ElementRule } })).toThrow(
      expect.objectContaining({ code: 'invalid_request', message: expect.stringContaining('elementRules.p') }),
    );
  });
});
