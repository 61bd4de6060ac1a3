import { describe, expect, it, vi } from 'vitest';
import { compileCrawlRules, type CrawlRules, type CrawlRulesInput } from './crawl-rules.js';
import { decideLink, decideRedirect, denialMessages, type DenialReason, type LinkContext, type LinkDecision } from './frontier-filter.js';

const defaults: CrawlRulesInput = {
  startUrl: 'https://example.com/',
  includePaths: [],
  excludePaths: [],
  crawlEntireDomain: false,
  allowExternalLinks: false,
  allowSubdomains: false,
  ignoreQueryParameters: false,
  deduplicateSimilarURLs: true,
  regexOnFullURL: false,
};

const rulesWith = (overrides: Partial<CrawlRulesInput> = {}): CrawlRules => compileCrawlRules({ ...defaults, ...overrides });

function onPage(page = 'https://example.com/', discoveryDepth = 0, isAllowedByRobots?: (url: URL) => boolean): LinkContext {
  return { pageUrl: new URL(page), discoveryDepth, ...(isAllowedByRobots ? { isAllowedByRobots } : {}) };
}

/** 'enqueue' or the denial reason: compact for tables. */
function outcome(decision: LinkDecision): DenialReason | 'enqueue' {
  return decision.enqueue ? 'enqueue' : decision.reason;
}

const decide = (rules: CrawlRules, link: string, context = onPage()) => outcome(decideLink(rules, link, context));

function enqueued(decision: LinkDecision): { url: string; key: string; discoveryDepth: number } {
  if (!decision.enqueue) throw new Error(`expected enqueue, got ${decision.reason}`);
  return { url: decision.url.href, key: decision.key, discoveryDepth: decision.discoveryDepth };
}

const blockAdmin = (url: URL) => !url.pathname.startsWith('/admin');

describe('denial reasons', () => {
  it('are the exact Firecrawl strings', () => {
    expect(denialMessages).toEqual({
      depth: 'URL exceeds maximum crawl depth',
      excluded: 'URL matches exclude pattern',
      'not-included': 'URL does not match required include pattern',
      robots: 'URL blocked by robots.txt',
      'file-type': 'URL points to a file type that is not crawled',
      unparseable: 'URL could not be parsed',
      backward: 'URL cannot be crawled unless crawlEntireDomain is set to true',
      social: 'URL is a social media or email link',
      external: 'External URL not allowed',
      anchor: 'URL contains section anchor (#)',
    });
  });

  it.each<[DenialReason, Partial<CrawlRulesInput>, string, LinkContext]>([
    ['depth', { maxDepth: 1 }, '/a/b', onPage()],
    ['depth', { maxDiscoveryDepth: 1 }, '/a', onPage('https://example.com/', 1)],
    ['excluded', { excludePaths: ['^/private'] }, '/private/x', onPage()],
    ['not-included', { includePaths: ['^/blog'] }, '/news', onPage()],
    ['robots', {}, '/admin/users', onPage('https://example.com/', 0, blockAdmin)],
    ['file-type', {}, '/logo.png', onPage()],
    ['unparseable', {}, 'https://exa mple.com/', onPage()],
    ['backward', { startUrl: 'https://example.com/docs' }, '/blog', onPage('https://example.com/docs')],
    ['social', { allowExternalLinks: true }, 'https://twitter.com/example', onPage()],
    ['external', {}, 'https://other.com/page', onPage()],
    ['anchor', {}, '/about#team', onPage()],
  ])('%s is reachable', (reason, overrides, link, context) => {
    const decision = decideLink(rulesWith(overrides), link, context);
    expect(outcome(decision)).toBe(reason);
  });
});

describe('decideLink: internal links', () => {
  const rules = rulesWith();

  it('enqueues a same-site link with its normalized URL, key and next discovery depth', () => {
    expect(enqueued(decideLink(rules, '/Docs/Intro/', onPage('https://example.com/', 2)))).toEqual({
      url: 'https://example.com/Docs/Intro/',
      key: 'example.com/Docs/Intro',
      discoveryDepth: 3,
    });
  });

  it('resolves relative links against the page URL', () => {
    expect(enqueued(decideLink(rules, '../b/c', onPage('https://example.com/a/x/y'))).url).toBe('https://example.com/a/b/c');
    expect(enqueued(decideLink(rules, '  ?page=2  ', onPage('https://example.com/list'))).url).toBe('https://example.com/list?page=2');
  });

  it('treats www. and no-www as one site, in both directions', () => {
    expect(decide(rules, 'https://www.example.com/a')).toBe('enqueue');
    expect(decide(rules, 'https://example.com/a', onPage('https://www.example.com/'))).toBe('enqueue');
    expect(decide(rules, 'http://example.com/a')).toBe('enqueue');
  });

  it('a non-default port is its own site (Firecrawl ignores the port: :4000 is another server)', () => {
    const local = rulesWith({ startUrl: 'http://127.0.0.1:3000/' });
    expect(decide(local, 'http://127.0.0.1:4000/x', onPage('http://127.0.0.1:3000/'))).toBe('external');
    expect(decide(local, 'http://127.0.0.1:3000/x', onPage('http://127.0.0.1:3000/'))).toBe('enqueue');
    expect(decide(local, 'https://127.0.0.1:3000/x', onPage('http://127.0.0.1:3000/'))).toBe('enqueue');
    // Default ports are no port: http and https of one host stay one site.
    expect(decide(rules, 'http://example.com:80/a')).toBe('enqueue');
    expect(decide(rules, 'https://example.com:443/a')).toBe('enqueue');
    expect(decide(rules, 'https://example.com:8443/a')).toBe('external');
    // A redirect to another port leaves the crawl too.
    expect(outcome(decideRedirect(local, new URL('http://127.0.0.1:4000/x'), { sourceUrl: new URL('http://127.0.0.1:3000/a'), discoveryDepth: 1 }))).toBe(
      'external',
    );
  });

  it('allowSubdomains admits sibling hosts on the start port only', () => {
    const siblings = rulesWith({ startUrl: 'http://docs.example.com:8080/', allowSubdomains: true });
    expect(decide(siblings, 'http://api.example.com:8080/x', onPage('http://docs.example.com:8080/'))).toBe('enqueue');
    expect(decide(siblings, 'http://api.example.com:9090/x', onPage('http://docs.example.com:8080/'))).toBe('external');
  });

  it('gives the same key to the URL permutations of one page', () => {
    const keys = ['https://www.example.com/a/', 'http://example.com/a/index.html', '/a/index.php', '/a'].map(
      (link) => enqueued(decideLink(rules, link, onPage())).key,
    );
    expect(new Set(keys)).toEqual(new Set(['example.com/a']));
  });

  it('refuses section anchors but follows SPA routes, keeping their fragment', () => {
    expect(decide(rules, '#top')).toBe('anchor');
    expect(decide(rules, '/page#')).toBe('anchor');
    expect(decide(rules, '/page#/')).toBe('anchor');
    expect(decide(rules, '/page#a#/b')).toBe('anchor');
    const spa = enqueued(decideLink(rules, '/#/docs/intro', onPage()));
    expect(spa.url).toBe('https://example.com/#/docs/intro');
    expect(spa.key).not.toBe(enqueued(decideLink(rules, '/#/api', onPage())).key);
    expect(decide(rules, '/app#!/settings')).toBe('enqueue');
  });

  it.each([
    ['/report.pdf', 'enqueue'],
    ['/letter.docx', 'enqueue'],
    ['/feed.xml', 'enqueue'],
    ['/a/B.JPG', 'file-type'],
    ['/style.css?v=3', 'file-type'],
    ['/app.js', 'file-type'],
    ['/font.woff2', 'file-type'],
    ['/data.json', 'enqueue'],
    ['/module.mjs', 'enqueue'],
    ['/image.png/', 'enqueue'],
    ['/archive.tar.zip', 'file-type'],
    ['/x.inc', 'file-type'],
  ])('file type of %s -> %s', (link, expected) => {
    expect(decide(rules, link)).toBe(expected);
  });

  it('refuses non-web schemes: mailto as social, the rest as external', () => {
    expect(decide(rules, 'mailto:hello@example.com')).toBe('social');
    expect(decide(rules, 'tel:+123456')).toBe('external');
    expect(decide(rules, 'javascript:void(0)')).toBe('external');
    expect(decide(rules, 'ftp://example.com/file')).toBe('external');
    expect(decide(rules, 'data:text/html,hi')).toBe('external');
  });

  it('never throws on junk', () => {
    for (const junk of ['', '   ', '\u0000', 'http://', '//', 'http://[::1', `/${'a/'.repeat(5000)}`]) {
      expect(() => decideLink(rules, junk, onPage())).not.toThrow();
    }
    expect(decide(rules, 'http://[::1')).toBe('unparseable');
    expect(decide(rules, '')).toBe('enqueue');
  });
});

describe('decideLink: check order (first failing check names the reason)', () => {
  it('checks anchors, then exclude, then robots before any path rule', () => {
    const rules = rulesWith({ excludePaths: ['^/admin/secret'], maxDepth: 0, includePaths: ['^/nothing'] });
    const context = onPage('https://example.com/', 0, blockAdmin);
    expect(decide(rules, '/admin/secret/x#frag', context)).toBe('anchor');
    expect(decide(rules, '/admin/secret/x', context)).toBe('excluded');
    expect(decide(rules, '/admin/x/y', context)).toBe('robots');
    expect(decide(rules, '/x/y', context)).toBe('depth');
  });

  it('reports Step A reasons even on a page at the discovery-depth limit', () => {
    const rules = rulesWith({ maxDiscoveryDepth: 1 });
    const context = onPage('https://example.com/', 1, blockAdmin);
    expect(decide(rules, '#x', context)).toBe('anchor');
    expect(decide(rules, '/admin', context)).toBe('robots');
    expect(decide(rules, 'https://other.com/x', context)).toBe('external');
    expect(decide(rules, '/fine', context)).toBe('depth');
  });

  it('then path depth, exclude, include, backward, robots (other hosts), file type', () => {
    const rules = rulesWith({
      startUrl: 'https://example.com/docs',
      maxDepth: 2,
      includePaths: ['docs', 'other'],
      excludePaths: ['drafts'],
      allowExternalLinks: true,
    });
    const context = onPage('https://example.com/docs', 0, (url) => !url.pathname.includes('blocked'));
    expect(decide(rules, '/docs/a/b/c/drafts', context)).toBe('excluded');
    expect(decide(rules, 'https://other.com/docs/a/b/c/drafts', context)).toBe('depth');
    expect(decide(rules, '/docs/a/b/c', context)).toBe('depth');
    expect(decide(rules, '/docs/drafts.png', context)).toBe('excluded');
    expect(decide(rules, '/docs-x/a.png', context)).toBe('file-type');
    expect(decide(rules, '/news/a.png', context)).toBe('not-included');
    expect(decide(rules, '/other/a.png', context)).toBe('backward');
    expect(decide(rules, 'https://other.com/docs/blocked.png', context)).toBe('robots');
    expect(decide(rules, 'https://other.com/docs/ok.png', context)).toBe('file-type');
    expect(decide(rules, 'https://other.com/docs/ok', context)).toBe('enqueue');
  });

  it('asks robots once per decision, with the normalized URL, only when the checks before it passed', () => {
    const isAllowedByRobots = vi.fn((_url: URL) => true);
    const rules = rulesWith({ excludePaths: ['^/skip'], allowExternalLinks: true });
    const context = onPage('https://example.com/', 0, isAllowedByRobots);
    decideLink(rules, '/skip/me', context);
    decideLink(rules, '#frag', context);
    expect(isAllowedByRobots).not.toHaveBeenCalled();
    decideLink(rules, '/page#x', context);
    decideLink(rules, 'https://OTHER.com:443/a?q=1#x', context);
    decideLink(rules, '/ok?q=1', context);
    expect(isAllowedByRobots.mock.calls.map(([url]) => url.href)).toEqual(['https://other.com/a?q=1', 'https://example.com/ok?q=1']);
  });
});

describe('decideLink: include/exclude patterns', () => {
  it('match the pathname, unanchored: `blog` also matches /xblog', () => {
    const rules = rulesWith({ includePaths: ['blog'] });
    expect(decide(rules, '/blog/post')).toBe('enqueue');
    expect(decide(rules, '/xblog/1')).toBe('enqueue');
    expect(decide(rules, '/news?topic=blog')).toBe('not-included');
  });

  it('`^/pricing$` admits exactly /pricing (query ignored: it is not in the path)', () => {
    const rules = rulesWith({ includePaths: ['^/pricing$'] });
    expect(decide(rules, '/pricing')).toBe('enqueue');
    expect(decide(rules, '/pricing?plan=pro')).toBe('enqueue');
    expect(decide(rules, '/pricing/')).toBe('not-included');
    expect(decide(rules, '/en/pricing')).toBe('not-included');
  });

  it('with regexOnFullURL match the whole normalized URL, query included', () => {
    const rules = rulesWith({ includePaths: ['^https://example\\.com/pricing$'], regexOnFullURL: true });
    expect(decide(rules, '/pricing')).toBe('enqueue');
    expect(decide(rules, 'https://www.example.com/pricing')).toBe('not-included');
    expect(decide(rules, '/pricing?plan=pro')).toBe('not-included');
    expect(decide(rules, '/pricing#details')).toBe('anchor');
    expect(decide(rulesWith({ includePaths: ['^/pricing$'], regexOnFullURL: true }), '/pricing')).toBe('not-included');
  });

  it('keeps Firecrawl\u2019s double exclusion: internal links are also excluded by the pathname under regexOnFullURL', () => {
    const rules = rulesWith({ excludePaths: ['^/blog'], regexOnFullURL: true, allowExternalLinks: true });
    expect(decide(rules, '/blog/post')).toBe('excluded');
    expect(decide(rules, 'https://other.com/blog/post')).toBe('enqueue');
    expect(decide(rules, '/news')).toBe('enqueue');
  });

  it('see the percent-encoded path', () => {
    expect(decide(rulesWith({ includePaths: ['^/caf%C3%A9'] }), '/café')).toBe('enqueue');
    expect(decide(rulesWith({ includePaths: ['^/café'] }), '/café')).toBe('not-included');
    expect(decide(rulesWith({ includePaths: ['^/a%20b$'] }), '/a b')).toBe('enqueue');
  });

  it('apply to links on other hosts too (Step B runs on every link)', () => {
    const rules = rulesWith({ includePaths: ['^/docs'], excludePaths: ['secret'], allowExternalLinks: true });
    expect(decide(rules, 'https://other.com/docs/x')).toBe('enqueue');
    expect(decide(rules, 'https://other.com/news')).toBe('not-included');
    expect(decide(rules, 'https://other.com/docs/secret')).toBe('excluded');
  });
});

describe('decideLink: backward links', () => {
  it('admit only paths starting with the start path, as a plain string prefix', () => {
    const rules = rulesWith({ startUrl: 'https://example.com/blog' });
    const context = onPage('https://example.com/blog');
    expect(decide(rules, '/blog', context)).toBe('enqueue');
    expect(decide(rules, '/blog/post', context)).toBe('enqueue');
    expect(decide(rules, '/blog-archive', context)).toBe('enqueue');
    expect(decide(rules, '/blogs', context)).toBe('enqueue');
    expect(decide(rules, '/', context)).toBe('backward');
    expect(decide(rules, '/about', context)).toBe('backward');
    expect(decide(rules, '/Blog/post', context)).toBe('backward');
  });

  it('a trailing slash on the start path refuses the slashless parent', () => {
    const rules = rulesWith({ startUrl: 'https://example.com/blog/' });
    expect(decide(rules, '/blog', onPage('https://example.com/blog/'))).toBe('backward');
    expect(decide(rules, '/blog/x', onPage('https://example.com/blog/'))).toBe('enqueue');
  });

  it('a document start URL admits only itself and longer paths', () => {
    const rules = rulesWith({ startUrl: 'https://example.com/docs/index.html' });
    expect(decide(rules, '/docs/other', onPage('https://example.com/docs/index.html'))).toBe('backward');
  });

  it('the root start admits everything; crawlEntireDomain turns the check off', () => {
    expect(decide(rulesWith(), '/any/where')).toBe('enqueue');
    const rules = rulesWith({ startUrl: 'https://example.com/blog', crawlEntireDomain: true });
    expect(decide(rules, '/about', onPage('https://example.com/blog/post'))).toBe('enqueue');
  });

  it('also applies to external and subdomain links (path compared, host not)', () => {
    const rules = rulesWith({ startUrl: 'https://example.com/docs', allowExternalLinks: true, allowSubdomains: true });
    const context = onPage('https://example.com/docs');
    expect(decide(rules, 'https://other.com/page', context)).toBe('backward');
    expect(decide(rules, 'https://other.com/docs/page', context)).toBe('enqueue');
    expect(decide(rules, 'https://api.example.com/ref', context)).toBe('backward');
  });
});

describe('decideLink: depth', () => {
  it('v1 maxDepth is relative to the start URL', () => {
    const rules = rulesWith({ startUrl: 'https://example.com/docs', maxDepth: 1 });
    const context = onPage('https://example.com/docs');
    expect(decide(rules, '/docs/a', context)).toBe('enqueue');
    expect(decide(rules, '/docs/a/index.html', context)).toBe('enqueue');
    expect(decide(rules, '/docs/a/', context)).toBe('enqueue');
    expect(decide(rules, '/docs/a/b', context)).toBe('depth');
  });

  it('maxDepth 0 from the root keeps the root only', () => {
    const rules = rulesWith({ maxDepth: 0 });
    expect(decide(rules, '/')).toBe('enqueue');
    expect(decide(rules, '/index.php')).toBe('enqueue');
    expect(decide(rules, '/a')).toBe('depth');
  });

  it('maxDiscoveryDepth counts hops: a page at the limit enqueues nothing', () => {
    const one = rulesWith({ maxDiscoveryDepth: 1 });
    expect(enqueued(decideLink(one, 'https://example.com/', onPage('https://example.com/', -1))).discoveryDepth).toBe(0);
    expect(enqueued(decideLink(one, '/a', onPage('https://example.com/', 0))).discoveryDepth).toBe(1);
    expect(decide(one, '/b', onPage('https://example.com/a', 1))).toBe('depth');

    const zero = rulesWith({ maxDiscoveryDepth: 0 });
    expect(decide(zero, '/from-sitemap', onPage('https://example.com/', -1))).toBe('enqueue');
    expect(decide(zero, '/a', onPage('https://example.com/', 0))).toBe('depth');
  });
});

describe('decideLink: other hosts', () => {
  it('refuses them by default', () => {
    const rules = rulesWith();
    expect(decide(rules, 'https://other.com/page')).toBe('external');
    expect(decide(rules, 'https://blog.example.com/post')).toBe('external');
  });

  it('refuses social and email links first, by substring of the whole URL (Firecrawl\u2019s rule)', () => {
    const rules = rulesWith({ allowExternalLinks: true });
    expect(decide(rules, 'https://www.facebook.com/example')).toBe('social');
    expect(decide(rules, 'https://github.com/example/repo')).toBe('social');
    expect(decide(rules, 'https://discord.gg/abc')).toBe('social');
    expect(decide(rules, 'https://blog.other.com/my-github.com-workflow')).toBe('social');
    expect(decide(rules, 'https://other.com/share?u=twitter.com')).toBe('social');
    expect(decide(rules, 'https://other.com/page')).toBe('enqueue');
  });

  it('does not apply the social list to the crawled site itself', () => {
    const rules = rulesWith({ startUrl: 'https://github.com/example' });
    expect(decide(rules, '/example/repo', onPage('https://github.com/example'))).toBe('enqueue');
  });

  it('with allowExternalLinks follows non-homepage links one hop, normalized', () => {
    const rules = rulesWith({ allowExternalLinks: true });
    expect(enqueued(decideLink(rules, 'https://Other.com:443/guide#intro', onPage()))).toEqual({
      url: 'https://other.com/guide',
      key: 'other.com/guide',
      discoveryDepth: 1,
    });
    expect(decide(rules, 'https://other.com/')).toBe('external');
    expect(decide(rules, 'https://other.com')).toBe('external');
    expect(decide(rules, 'https://other.com/?ref=x')).toBe('external');
    expect(decide(rules, 'https://other.com//')).toBe('external');
  });

  it('refuses every link found on a page outside the crawl (one hop only)', () => {
    const rules = rulesWith({ allowExternalLinks: true });
    const external = onPage('https://other.com/guide', 1);
    expect(decide(rules, '/guide/next', external)).toBe('external');
    expect(decide(rules, 'https://third.com/x', external)).toBe('external');
    expect(decide(rules, 'https://example.com/back', external)).toBe('external');
  });

  it('excludes entries read as domain patterns (host and its subdomains, optional path prefix)', () => {
    const rules = rulesWith({ allowExternalLinks: true, excludePaths: ['^/nothing', 'ads.net', 'other.com/private'] });
    expect(decide(rules, 'https://ads.net/banner')).toBe('excluded');
    expect(decide(rules, 'https://cdn.ads.net/banner')).toBe('excluded');
    expect(decide(rules, 'https://badads.net/banner')).toBe('enqueue');
    expect(decide(rules, 'https://other.com/private/doc')).toBe('excluded');
    expect(decide(rules, 'https://www.other.com/private-area')).toBe('excluded');
    expect(decide(rules, 'https://other.com/public')).toBe('enqueue');
  });
});

describe('decideLink: subdomains (registrable domain by the Public Suffix List)', () => {
  it('admits sibling hosts of the same registrable domain with allowSubdomains', () => {
    const rules = rulesWith({ startUrl: 'https://a.example.co.uk/', allowSubdomains: true });
    const context = onPage('https://a.example.co.uk/');
    expect(decide(rules, 'https://b.example.co.uk/page', context)).toBe('enqueue');
    expect(decide(rules, 'https://b.example.co.uk/', context)).toBe('enqueue');
    expect(decide(rules, 'https://example.co.uk/page', context)).toBe('enqueue');
    expect(decide(rules, 'https://other.co.uk/page', context)).toBe('external');
    expect(decide(rulesWith({ startUrl: 'https://a.example.co.uk/' }), 'https://b.example.co.uk/page', context)).toBe('external');
  });

  it('treats private suffixes as public: two github.io sites are different sites', () => {
    const rules = rulesWith({ startUrl: 'https://example.github.io/', allowSubdomains: true });
    const context = onPage('https://example.github.io/');
    expect(decide(rules, 'https://other.github.io/page', context)).toBe('external');
    expect(decide(rules, 'https://docs.example.github.io/page', context)).toBe('enqueue');
  });

  it('never groups IP addresses or localhost by domain', () => {
    const rules = rulesWith({ startUrl: 'http://127.0.0.1:3000/', allowSubdomains: true });
    expect(decide(rules, 'http://localhost:3000/x', onPage('http://127.0.0.1:3000/'))).toBe('external');
    expect(decide(rules, 'http://127.0.0.2/x', onPage('http://127.0.0.1:3000/'))).toBe('external');
  });

  it('judges links on a subdomain page against that page: its own links are internal', () => {
    const rules = rulesWith({ allowSubdomains: true });
    const docs = onPage('https://docs.example.com/guide', 1);
    expect(decide(rules, '/guide/next', docs)).toBe('enqueue');
    expect(decide(rules, '/guide#part', docs)).toBe('anchor');
    expect(decide(rules, 'https://example.com/pricing', docs)).toBe('enqueue');
    expect(decide(rules, 'https://other.com/x', docs)).toBe('external');
    expect(decide(rulesWith(), '/guide/next', docs)).toBe('external');
  });
});

describe('decideRedirect', () => {
  const from = (source: string, discoveryDepth = 1, isAllowedByRobots?: (url: URL) => boolean) => ({
    sourceUrl: new URL(source),
    discoveryDepth,
    ...(isAllowedByRobots ? { isAllowedByRobots } : {}),
  });
  const redirect = (rules: CrawlRules, target: string, context = from('https://example.com/docs/old')) =>
    outcome(decideRedirect(rules, new URL(target), context));

  it('keeps the page at its discovery depth and gives the target key', () => {
    const decision = decideRedirect(rulesWith(), new URL('https://www.example.com/new/#section'), from('https://example.com/old', 2));
    expect(enqueued(decision)).toEqual({ url: 'https://www.example.com/new/', key: 'example.com/new', discoveryDepth: 2 });
  });

  it('does not apply backward, depth, discovery depth, anchors or file types', () => {
    const rules = rulesWith({ startUrl: 'https://example.com/docs', maxDepth: 1, maxDiscoveryDepth: 1 });
    expect(redirect(rules, 'https://example.com/introduction')).toBe('enqueue');
    expect(redirect(rules, 'https://example.com/docs/a/b/c/d')).toBe('enqueue');
    expect(redirect(rules, 'https://example.com/docs/page#part')).toBe('enqueue');
    expect(enqueued(decideRedirect(rules, new URL('https://example.com/docs/page#'), from('https://example.com/docs'))).url).toBe(
      'https://example.com/docs/page',
    );
    expect(enqueued(decideRedirect(rules, new URL('https://example.com/#/app'), from('https://example.com/docs'))).url).toBe('https://example.com/#/app');
    expect(redirect(rules, 'https://example.com/docs/image.png')).toBe('enqueue');
  });

  it('applies exclude, include and robots', () => {
    const rules = rulesWith({ includePaths: ['^/docs'], excludePaths: ['^/docs/private'] });
    const context = from('https://example.com/docs/old', 1, blockAdmin);
    expect(redirect(rules, 'https://example.com/docs/private/x', context)).toBe('excluded');
    expect(redirect(rules, 'https://example.com/login', context)).toBe('not-included');
    expect(redirect(rules, 'https://example.com/docs/new', context)).toBe('enqueue');
    expect(redirect(rulesWith(), 'https://example.com/admin', context)).toBe('robots');
  });

  it('judges hosts against the crawl start', () => {
    expect(redirect(rulesWith(), 'https://other.com/landing')).toBe('external');
    expect(redirect(rulesWith(), 'mailto:someone@example.com')).toBe('social');
    expect(redirect(rulesWith({ allowExternalLinks: true }), 'https://twitter.com/x')).toBe('social');
    expect(redirect(rulesWith({ allowSubdomains: true }), 'https://docs.example.com/')).toBe('enqueue');
    expect(redirect(rulesWith({ excludePaths: ['other.com'], allowExternalLinks: true }), 'https://other.com/x')).toBe('excluded');
  });

  it('with allowExternalLinks admits a non-homepage target from a crawl page, or within the source\u2019s own site', () => {
    const rules = rulesWith({ allowExternalLinks: true });
    expect(redirect(rules, 'https://other.com/landing')).toBe('enqueue');
    expect(redirect(rules, 'https://other.com/')).toBe('external');
    const externalSource = from('https://other.com/a', 1);
    expect(redirect(rules, 'https://www.other.com/a', externalSource)).toBe('enqueue');
    expect(redirect(rules, 'https://docs.other.com/a', externalSource)).toBe('enqueue');
    expect(redirect(rules, 'https://third.com/a', externalSource)).toBe('external');
  });
});

describe('decideLink on a page of links (parse and page-site shortcuts)', () => {
  const rules = rulesWith({ crawlEntireDomain: true });

  it('decides an absolute link as it decides the relative link it was resolved from', () => {
    const context = onPage('https://example.com/docs/intro.html', 1);
    for (const [relative, absolute] of [
      ['a.html', 'https://example.com/docs/a.html'],
      ['../b.html?x=1#top', 'https://example.com/b.html?x=1#top'],
      ['#/route', 'https://example.com/docs/intro.html#/route'],
      ['/admin/', 'https://example.com/admin/'],
      ['logo.png', 'https://example.com/docs/logo.png'],
    ]) {
      expect(decideLink(rules, absolute!, context)).toEqual(decideLink(rules, relative!, context));
    }
    expect(enqueued(decideLink(rules, 'https://example.com/docs/../b.html', context)).url).toBe('https://example.com/b.html');
  });

  it('still resolves scheme-relative, backslashed and `http:` without slashes against the page', () => {
    const context = onPage('https://example.com/docs/intro.html', 1);
    expect(enqueued(decideLink(rules, 'https:next.html', context)).url).toBe('https://example.com/docs/next.html');
    expect(enqueued(decideLink(rules, '//example.com/x', context)).url).toBe('https://example.com/x');
    expect(enqueued(decideLink(rules, 'https:\\\\example.com\\y', context)).url).toBe('https://example.com/y');
    expect(enqueued(decideLink(rules, ' HTTPS://EXAMPLE.com/z ', context)).url).toBe('https://example.com/z');
  });

  it('reads the page site of the page it is given, also when one URL object changes host between calls', () => {
    const pageUrl = new URL('https://example.com/a');
    const context: LinkContext = { pageUrl, discoveryDepth: 1 };
    expect(decide(rules, 'https://example.com/b', context)).toBe('enqueue');
    pageUrl.host = 'elsewhere.example';
    expect(decide(rules, 'https://example.com/b', context)).toBe('external');
    expect(decide(rules, 'https://example.com/b', onPage('https://example.com/c', 1))).toBe('enqueue');
  });

  it('applies a path depth limit when there is one, and none without', () => {
    expect(decide(rulesWith({ maxDepth: 1 }), '/a/b')).toBe('depth');
    expect(decide(rulesWith({ crawlEntireDomain: true }), '/a/b/c/d/e/f/g/h/i/j/k/l')).toBe('enqueue');
  });
});
