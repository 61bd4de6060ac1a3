import render from 'dom-serializer';
import type { Document } from 'domhandler';
import { findAll, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { resolveUrls } from '../html/clean-html.js';
import { cloneTree, collapsedText, pruneTree } from './dom-tools.js';
import { extractMainContent, extractMainContentOf } from './main-content.js';

const prose = (topic: string, sentences = 4): string =>
  Array.from(
    { length: sentences },
    (_, index) =>
      `The ${topic} section explains, in sentence ${index + 1}, how the system behaves, why it was built this way, and what a reader should try next.`,
  ).join(' ');

function tagNames(document: Document): string[] {
  return findAll(() => true, document.children).map((element) => element.name);
}

function textOf(document: Document): string {
  return textContent(document).replace(/\s+/g, ' ');
}

const newsPage = `<!doctype html>
<html><head><title>Rust ownership explained | Example News</title>
<meta property="og:title" content="Rust ownership explained"><style>.x{color:red}</style></head>
<body>
  <div class="cookie-consent"><p>We use cookies to improve your experience. Accept all cookies?</p></div>
  <div id="onetrust-banner-sdk"><p>Your privacy choices matter to us, manage them here.</p></div>
  <header class="site-header"><a href="/">Example News</a>
    <nav><ul><li><a href="/world">World</a></li><li><a href="/tech">Tech</a></li><li><a href="/sport">Sport</a></li></ul></nav>
  </header>
  <div class="breadcrumbs"><a href="/">Home</a> › <a href="/tech">Tech</a></div>
  <main>
    <article>
      <header><h1>Rust ownership explained</h1><p class="byline">By Ada Writer</p></header>
      <div class="share-buttons"><a href="https://twitter.com/share">Tweet</a> <a href="https://facebook.com/share">Share</a></div>
      <div class="article-body">
        <p>${prose('introduction')}</p>
        <h2>Moves and borrows</h2>
        <p>${prose('borrowing')}</p>
        <pre><code class="language-rust">fn main() {
    let s = String::from("hello");
    let t = &amp;s;
    println!("{t}");
}</code></pre>
        <ul><li>Each value has one owner at a time, always.</li><li>Borrows never outlive the value they point to.</li><li>Mutable borrows are exclusive for their whole lifetime.</li></ul>
        <table><thead><tr><th>Kind</th><th>Count</th></tr></thead><tbody><tr><td>Shared borrow</td><td>many</td></tr><tr><td>Mutable borrow</td><td>one</td></tr></tbody></table>
        <figure><img src="/diagram.png" alt="Ownership diagram"><figcaption>Ownership moves from s to t.</figcaption></figure>
        <blockquote><p>Ownership is Rust's most unique feature, and it enables memory safety without a collector.</p></blockquote>
        <p>${prose('conclusion')}</p>
      </div>
      <div class="newsletter-signup"><h3>Get our newsletter</h3><p>Subscribe to receive the best stories of the week in your inbox, every Friday morning.</p></div>
    </article>
    <section class="related-articles"><h2>Related articles</h2><ul>
      <li><a href="/a">Go generics in practice, a long story about type parameters</a></li>
      <li><a href="/b">Zig comptime explained for the curious reader of this site</a></li>
    </ul></section>
    <section id="comments"><h2>3 comments</h2><div class="comment"><p>Great article, thank you for writing it up so clearly and with examples!</p></div></section>
  </main>
  <aside class="sidebar"><h3>Most read</h3><ul><li><a href="/c">Something else entirely that people read a lot</a></li></ul></aside>
  <footer><p>© 2024 Example News. All rights reserved.</p><a href="/privacy">Privacy</a></footer>
  <script>console.log("tracking")</script>
</body></html>`;

describe('extractMainContent on a news article', () => {
  const result = extractMainContent(parseDocument(newsPage), { url: 'https://news.example/rust' });
  const text = textOf(result.document);
  const tags = tagNames(result.document);

  it('keeps the article with its h1, table, code block, list, figure and quote', () => {
    expect(result.isFallback).toBe(false);
    expect(tags.filter((tag) => tag === 'h1')).toHaveLength(1);
    expect(text).toContain('Rust ownership explained');
    for (const tag of ['table', 'pre', 'ul', 'figure', 'figcaption', 'img', 'blockquote', 'h2']) expect(tags).toContain(tag);
    expect(text).toContain('Mutable borrows are exclusive');
    expect(text).toContain('let t = &s;');
    expect(text).toContain('Ownership moves from s to t.');
    expect(text).toContain('The conclusion section explains');
  });

  it('drops navigation, banners, share widget, related list, comments, newsletter, sidebar and footer', () => {
    for (const chrome of [
      'We use cookies',
      'privacy choices',
      'World',
      'Home',
      'Tweet',
      'Go generics',
      'Great article',
      'Get our newsletter',
      'Most read',
      'All rights reserved',
      'tracking',
      'color:red',
    ]) {
      expect(text).not.toContain(chrome);
    }
    expect(tags).not.toContain('nav');
    expect(tags).not.toContain('footer');
    expect(tags).not.toContain('script');
  });

  it('does not mutate the input tree', () => {
    const document = parseDocument(newsPage);
    const before = render(document);
    extractMainContent(document);
    expect(render(document)).toBe(before);
  });

  it('leaves the input untouched when the output URLs are made absolute (attribute objects are shared)', () => {
    const document = parseDocument(
      newsPage.replace('The introduction section explains,', '<a href="/ownership">Ownership</a> <img src="diagram.png"> The introduction section explains,'),
    );
    const before = render(document);
    const output = extractMainContent(document).document;
    resolveUrls(output, 'https://news.example/2024/rust');
    expect(render(document)).toBe(before);
    expect(render(output)).toContain('href="https://news.example/ownership"');
  });

  it('returns a tree whose nodes are not shared with the input', () => {
    const document = parseDocument(newsPage);
    const inputNodes = new Set(findAll(() => true, document.children));
    const output = extractMainContent(document).document;
    expect(findAll(() => true, output.children).some((element) => inputNodes.has(element))).toBe(false);
    for (const child of output.children) expect(child.parent).toBe(output);
  });
});

const docsPage = `<!doctype html>
<html><head><title>Installation | Widget Docs</title></head>
<body>
<div id="__docusaurus">
  <a class="skipToContent_fXgn" href="#__docusaurus_skipToContent_fallback">Skip to main content</a>
  <nav class="navbar navbar--fixed-top"><div class="navbar__inner"><a class="navbar__brand" href="/">Widget</a>
    <a class="navbar__item navbar__link" href="/docs">Docs</a><a class="navbar__item navbar__link" href="/blog">Blog</a></div></nav>
  <div class="main-wrapper docsWrapper">
    <div class="docRoot">
      <aside class="theme-doc-sidebar-container"><div class="sidebar"><nav class="menu thin-scrollbar"><ul class="theme-doc-sidebar-menu menu__list">
        <li class="menu__list-item"><a class="menu__link" href="/docs/intro">Introduction</a></li>
        <li class="menu__list-item"><a class="menu__link menu__link--active" href="/docs/install">Installation</a></li>
        <li class="menu__list-item"><a class="menu__link" href="/docs/config">Configuration</a></li>
      </ul></nav></div></aside>
      <main class="docMainContainer">
        <div class="container padding-top--md padding-bottom--lg"><div class="row">
          <div class="col docItemCol">
            <div class="docItemContainer">
              <article>
                <nav class="theme-doc-breadcrumbs breadcrumbsContainer" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li class="breadcrumbs__item"><a class="breadcrumbs__link" href="/">Home</a></li><li class="breadcrumbs__item"><span class="breadcrumbs__link">Installation</span></li></ul></nav>
                <div class="theme-doc-markdown markdown">
                  <header><h1>Installation</h1></header>
                  <p>${prose('installation')}</p>
                  <h2 id="requirements">Requirements<a href="#requirements" class="hash-link" title="Direct link to Requirements">​</a></h2>
                  <ul><li>Node.js 20 or newer, with npm available on the path.</li><li>About 50 MB of free disk space for the packages.</li></ul>
                  <div class="language-bash codeBlockContainer"><div class="codeBlockContent"><pre class="prism-code language-bash"><code class="codeBlockLines"><span class="token-line">npm install widget</span></code></pre></div></div>
                  <p>${prose('verification')}</p>
                </div>
                <footer class="theme-doc-footer docusaurus-mt-lg">
                  <div class="theme-doc-footer-edit-meta-row row"><div class="col"><a href="https://github.com/widget/docs/edit/main/install.md" class="theme-edit-this-page">Edit this page</a></div>
                  <div class="col lastUpdated"><span class="theme-last-updated">Last updated on <b>Jan 5, 2024</b></span></div></div>
                </footer>
              </article>
              <nav class="pagination-nav docusaurus-mt-lg" aria-label="Docs pages"><a class="pagination-nav__link pagination-nav__link--prev" href="/docs/intro"><div class="pagination-nav__sublabel">Previous</div><div class="pagination-nav__label">Introduction</div></a>
                <a class="pagination-nav__link pagination-nav__link--next" href="/docs/config"><div class="pagination-nav__sublabel">Next</div><div class="pagination-nav__label">Configuration</div></a></nav>
            </div>
          </div>
          <div class="col col--3"><div class="tableOfContents_bqdL thin-scrollbar theme-doc-toc-desktop"><ul class="table-of-contents table-of-contents__left-border">
            <li><a href="#requirements" class="table-of-contents__link toc-highlight">Requirements</a></li>
            <li><a href="#verify" class="table-of-contents__link toc-highlight">Verify the install</a></li></ul></div></div>
        </div></div>
      </main>
    </div>
  </div>
  <footer class="footer footer--dark"><div class="footer__copyright">Copyright © 2024 Widget, Inc.</div></footer>
</div>
</body></html>`;

describe('extractMainContent on a docs page (Docusaurus-like)', () => {
  const result = extractMainContent(parseDocument(docsPage));
  const text = textOf(result.document);
  const tags = tagNames(result.document);

  it('keeps the h1 from the article header, the list and the code block', () => {
    expect(result.isFallback).toBe(false);
    expect(tags).toContain('h1');
    expect(text).toContain('Installation');
    expect(text).toContain('Node.js 20 or newer');
    expect(text).toContain('npm install widget');
    expect(text).toContain('The verification section explains');
  });

  it('drops the sidebar, breadcrumbs, table of contents, edit link, last-updated line and pager', () => {
    for (const chrome of [
      'Skip to main content',
      'Configuration',
      'Introduction',
      'Home',
      'Verify the install',
      'Edit this page',
      'Last updated',
      'Previous',
      'Next',
      'Copyright',
      'Blog',
    ]) {
      expect(text).not.toContain(chrome);
    }
  });
});

describe('extractMainContent title handling', () => {
  it('puts the page h1 that sits just above the content root on top', () => {
    const html = `<html><head><title>Quiet rivers of the north</title></head><body>
      <div class="top"><h1>Quiet rivers of the north</h1><div class="date">March 3, 2024</div></div>
      <div class="story"><p>${prose('rivers')}</p><p>${prose('lakes')}</p><p>${prose('streams')}</p></div>
      <div class="bottom"><a href="/1">One more link</a> <a href="/2">Another link</a></div>
    </body></html>`;
    const document = extractMainContent(parseDocument(html)).document;
    const first = findAll((element) => element.name === 'h1', document.children)[0];
    expect(first && textContent(first)).toBe('Quiet rivers of the north');
    expect(textOf(document).indexOf('Quiet rivers')).toBeLessThan(textOf(document).indexOf('The rivers section'));
    expect(textOf(document)).not.toContain('March 3, 2024');
  });
});

describe('extractMainContent fallback', () => {
  it('returns the cleaned whole page when almost nothing is content', () => {
    const html = `<html><body><nav><a href="/">Home</a><a href="/about">About</a></nav>
      <div class="hero"><span>Welcome!</span> <a href="/start">Start here</a></div>
      <footer>© 2024 Tiny site</footer></body></html>`;
    const result = extractMainContent(parseDocument(html));
    expect(result.isFallback).toBe(true);
    const text = textOf(result.document);
    expect(text).toContain('Welcome!');
    expect(text).toContain('Start here');
    expect(text).not.toContain('About');
  });

  it('removes the chrome around the title that the first pass protected (the fallback judges again)', () => {
    const html = `<html><head><title>Tiny site title words</title></head><body>
      <header><h1>Tiny site title words</h1><a href="/menu">Menu link</a></header>
      <div class="hero"><p>Welcome to this tiny site, where not much happens at all.</p> <a href="/start">Start here</a></div>
      <footer>© 2024 Tiny site</footer></body></html>`;
    const result = extractMainContent(parseDocument(html));
    expect(result.isFallback).toBe(true);
    expect(textOf(result.document)).toContain('Welcome to this tiny site');
    expect(textOf(result.document)).not.toContain('Menu link');
  });

  it('repeats the chrome removals of the first pass on the page parsed again', () => {
    const html = `<html><body><nav><a href="/">Home</a><a href="/about">About</a></nav>
      <div class="hero"><h1>Tiny</h1><span>Welcome!</span> <a href="/start">Start here</a></div>
      <aside><p>Aside words</p></aside><footer>© 2024 Tiny site</footer></body></html>`;
    const copied = extractMainContent(parseDocument(html));
    const reparsed = extractMainContentOf({ document: parseDocument(html), reload: () => parseDocument(html) });
    expect(copied.isFallback).toBe(true);
    expect(reparsed.isFallback).toBe(true);
    expect(render(reparsed.document)).toBe(render(copied.document));
    expect(textOf(reparsed.document)).not.toContain('Aside words');
  });

  it('handles an empty document', () => {
    const result = extractMainContent(parseDocument(''));
    expect(result.isFallback).toBe(true);
    expect(textOf(result.document).trim()).toBe('');
  });
});

describe('extractMainContent on broken markup', () => {
  it('survives thousands of unclosed tags', () => {
    const depth = 5000;
    const html = `<html><body>${'<div><font>'.repeat(depth)}<p>${prose('deep', 6)}</p></body></html>`;
    const result = extractMainContent(parseDocument(html));
    expect(collapsedText(result.document)).toContain('The deep section explains');
    // A survival test, not a speed one: the unflattened 10,000-deep tree takes 13 s alone under
    // vitest on 2 cores and up to 31 s when other suites load the machine (parseHtml flattens it at
    // 512 in the product; its speed lives in benchmarks/html-to-markdown/hostile-transform.ts).
  }, 120_000);
});

describe('regressions', () => {
  it('keeps numbers in table cells and code, and drops a cookie banner on a short page', async () => {
    const { docsPageHtml, docsSitePages } = await import('../test/docs-site.js');
    const { parseDocument } = await import('htmlparser2');
    const { default: render } = await import('dom-serializer');
    const html = render(extractMainContent(parseDocument(docsPageHtml(docsSitePages[3]!))).document);
    expect(html).toContain('<td>10000</td>');
    expect(html).toContain('<td>10</td>');
    expect(html).toContain('const answer = 42;');
    expect(html).not.toContain('We use cookies');
  });
});

describe('extractMainContentOf with a page it may reload (large pages)', () => {
  const tinyPage = `<html><body><nav><a href="/">Home</a><a href="/about">About</a></nav>
    <div class="hero"><span>Welcome!</span> <a href="/start">Start here</a></div>
    <footer>© 2024 Tiny site</footer></body></html>`;

  function reloading(html: string) {
    let reloads = 0;
    const source = {
      document: parseDocument(html) as Document | undefined,
      reload: () => {
        reloads++;
        return parseDocument(html);
      },
    };
    return { source, reloads: () => reloads };
  }

  it('gives what the copying extraction gives, working on the page itself, and drops it', () => {
    const { source, reloads } = reloading(newsPage);
    const page = source.document!;
    const result = extractMainContentOf(source);
    expect(render(result.document)).toBe(render(extractMainContent(parseDocument(newsPage)).document));
    expect(result.isFallback).toBe(false);
    // One pass: the page was taken (not copied) and no second pass needed it again.
    expect(source.document).toBeUndefined();
    expect(reloads()).toBe(0);
    expect(page.children.length).toBeGreaterThan(0);
  });

  it('parses the page again for the retry and the fallback, with the same result', () => {
    const page = tinyPage.replace('<footer>', '<div class="sidebar"><p>Related: <a href="/a">A</a></p></div><footer>');
    const { source, reloads } = reloading(page);
    const result = extractMainContentOf(source);
    const expected = extractMainContent(parseDocument(page));
    expect(result.isFallback).toBe(expected.isFallback);
    expect(render(result.document)).toBe(render(expected.document));
    // The retry without class names (a name removed the sidebar) and the whole-page fallback each
    // read a fresh page.
    expect(reloads()).toBe(2);
  });

  it('skips the retry when no class name changed a decision of the first pass', () => {
    const { source, reloads } = reloading(tinyPage);
    const result = extractMainContentOf(source);
    const expected = extractMainContent(parseDocument(tinyPage));
    expect(result.isFallback).toBe(expected.isFallback);
    expect(render(result.document)).toBe(render(expected.document));
    // Only the fallback reads a fresh page: the retry would have repeated the first pass.
    expect(reloads()).toBe(1);
  });

  it('without reload, keeps the page untouched for every pass (small pages)', () => {
    const page = parseDocument(tinyPage);
    const before = render(page);
    const source = { document: page as Document | undefined };
    extractMainContentOf(source);
    expect(source.document).toBe(page);
    expect(render(page)).toBe(before);
  });
});

describe('pruneTree', () => {
  it('leaves what cloneTree copies with the same pruning, relinked in place', () => {
    const html = `<html><head><script>head()</script></head><body><!-- c --><script>a()</script><p>One <b>two</b></p><style>.x{}</style>
      <div><noscript>x</noscript><p>Three</p><script>b()</script></div><template><p>t</p></template></body></html>`;
    const drop = (node: { type: string }) => node.type === 'script' || node.type === 'style' || node.type === 'comment';
    const source = parseDocument(html);
    const body = findAll((element) => element.name === 'body', source.children)[0]!;
    const copy = cloneTree(source, { within: body, drop });
    pruneTree(body, drop);
    expect(render(source)).toBe(render(copy));
    // Siblings are linked as in the copy: no link to a dropped node is left.
    for (const element of findAll(() => true, source.children)) {
      for (const [index, child] of element.children.entries()) {
        expect(child.parent).toBe(element);
        expect(child.prev).toBe(element.children[index - 1] ?? null);
        expect(child.next).toBe(element.children[index + 1] ?? null);
      }
    }
    expect(render(source)).toContain('head()');
  });
});
