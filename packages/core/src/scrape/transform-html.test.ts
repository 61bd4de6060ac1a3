import { describe, expect, it } from 'vitest';
import { type HtmlTransformInput, transformHtml } from './transform-html.js';

/**
 * The main-content pass works on the parsed page itself and parses it again for a second pass
 * (issue 14, sixth pass; every page since the eleventh, whatever its length): a long page's output
 * must be the short one's. A script (never content) pads a page without changing what it says. The
 * copying path (`extractMainContent`) is compared with this one in main-content.test.ts.
 */
describe('transformHtml on a page long enough to be parsed again instead of copied', () => {
  const pad = `<script>${'x'.repeat(100_000)}</script>`;
  const input = (html: string, overrides: Partial<HtmlTransformInput> = {}): HtmlTransformInput => ({
    html,
    url: 'https://example.com/page',
    onlyMainContent: true,
    includeTags: [],
    excludeTags: [],
    removeBase64Images: true,
    want: { markdown: true, html: true, links: true, images: true, signals: true },
    ...overrides,
  });
  const article = (padding: string) => `<html><head><title>Ownership</title></head><body>
    <nav><a href="/">Home</a> <a href="/docs">Docs</a> <a href="/blog">Blog</a></nav>${padding}
    <main><h1>Ownership</h1>${'<p>Every value has one owner, and the value is dropped when its owner goes out of scope; moving it hands the duty over. <a href="/borrow">Borrowing</a> lends it for a while.</p>'.repeat(12)}
    <pre><code>let s = String::from("hi");</code></pre><img src="https://example.com/o.png" alt="diagram"></main>
    <aside class="related"><a href="/a">A</a> <a href="/b">B</a></aside><footer>© 2024 Example</footer></body></html>`;
  const tiny = (padding: string) => `<html><body><nav><a href="/">Home</a><a href="/about">About</a></nav>${padding}
    <div class="hero"><span>Welcome!</span> <a href="/start">Start here</a></div><footer>© 2024 Tiny site</footer></body></html>`;

  function same(page: (padding: string) => string, overrides: Partial<HtmlTransformInput> = {}) {
    const short = transformHtml(input(page(''), overrides));
    const long = transformHtml(input(page(pad), overrides));
    expect(long.html!.length).toBeLessThan(100_000);
    expect({ ...long, signals: undefined }).toEqual({ ...short, signals: undefined });
    return long;
  }

  it('gives the copying path’s output for an article (one pass)', () => {
    const output = same(article);
    expect(output.markdown).toContain('Every value has one owner');
    expect(output.markdown).not.toContain('Blog');
    expect(output.usedWholePage).toBe(false);
  });

  it('gives the same output when the retry and the whole-page fallback parse the page again', () => {
    const output = same(tiny);
    expect(output.markdown).toContain('Welcome!');
  });

  it('applies include and exclude tags again to the page parsed again', () => {
    same(tiny, { excludeTags: ['footer', '.hero a'] });
    const output = same(article, { includeTags: ['main', 'footer'], excludeTags: ['pre'] });
    expect(output.markdown).not.toContain('String::from');
  });

  it('keeps the whole page when main content is off', () => {
    const output = same(article, { onlyMainContent: false });
    expect(output.markdown).toContain('Blog');
  });
});
