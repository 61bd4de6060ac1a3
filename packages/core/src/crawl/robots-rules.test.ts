import { describe, expect, it } from 'vitest';
import { maxRobotsBytes, parseRobotsTxt, robotsRulesFromStatus } from './robots-rules.js';

const site = 'https://example.com';
const allowedPaths = (text: string, agent: string | string[], paths: string[]): Record<string, boolean> => {
  const rules = parseRobotsTxt(text, agent);
  return Object.fromEntries(paths.map((path) => [path, rules.isAllowed(site + path)]));
};

describe('parseRobotsTxt: RFC 9309 examples', () => {
  // RFC 9309 §5.1
  const rfcExample = [
    'User-Agent: *',
    'Disallow: *.gif$',
    'Disallow: /example/',
    'Allow: /publications/',
    '',
    'User-Agent: foobot',
    'Disallow:/',
    'Allow:/example/page.html',
    'Allow:/example/allowed.gif',
    '',
    'User-Agent: barbot',
    'User-Agent: bazbot',
    'Disallow: /example/page.html',
    '',
    'User-Agent: quxbot',
    '',
    'EOF',
  ].join('\n');
  const paths = ['/', '/example/page.html', '/example/allowed.gif', '/example/other', '/publications/a', '/pic.gif', '/pic.gif?x'];

  it('foobot may crawl only the two allowed pages', () => {
    expect(allowedPaths(rfcExample, 'foobot', paths)).toEqual({
      '/': false,
      '/example/page.html': true,
      '/example/allowed.gif': true,
      '/example/other': false,
      '/publications/a': false,
      '/pic.gif': false,
      '/pic.gif?x': false,
    });
  });

  it('barbot and bazbot share one group: everything but /example/page.html', () => {
    for (const agent of ['barbot', 'BazBot']) {
      expect(allowedPaths(rfcExample, agent, paths)).toEqual({
        '/': true,
        '/example/page.html': false,
        '/example/allowed.gif': true,
        '/example/other': true,
        '/publications/a': true,
        '/pic.gif': true,
        '/pic.gif?x': true,
      });
    }
  });

  it('quxbot has an empty group and may crawl everything', () => {
    expect(Object.values(allowedPaths(rfcExample, 'quxbot', paths)).every(Boolean)).toBe(true);
  });

  it('any other crawler follows the * group', () => {
    expect(allowedPaths(rfcExample, 'otherbot', paths)).toEqual({
      '/': true,
      '/example/page.html': false,
      '/example/allowed.gif': false,
      '/example/other': false,
      '/publications/a': true,
      '/pic.gif': false,
      '/pic.gif?x': true,
    });
  });

  it('the longest match wins (§5.2)', () => {
    const text = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
    expect(allowedPaths(text, 'foobot', ['/example/page/', '/example/page/x', '/example/page/disallowed.gif'])).toEqual({
      '/example/page/': true,
      '/example/page/x': true,
      '/example/page/disallowed.gif': false,
    });
  });

  it('reads the Googlebot/includes example with its sitemap (§2.2.3)', () => {
    const text = [
      '# This robots.txt file controls crawling of URLs under https://example.com.',
      'User-agent: *',
      'Disallow: /includes/',
      '',
      'User-agent: Googlebot',
      'Allow: /includes/',
      '',
      'Sitemap: https://example.com/sitemap.xml',
    ].join('\n');
    expect(parseRobotsTxt(text, 'Googlebot').isAllowed(`${site}/includes/a.css`)).toBe(true);
    expect(parseRobotsTxt(text, 'OtherBot').isAllowed(`${site}/includes/a.css`)).toBe(false);
    expect(parseRobotsTxt(text, 'OtherBot').sitemaps).toEqual(['https://example.com/sitemap.xml']);
  });

  it('matches the special-character table (§2.2.3)', () => {
    const text = 'User-agent: *\nDisallow: /path/file-with-a-*.html\nDisallow: /path/foo-$\n';
    expect(
      allowedPaths(text, 'bot', ['/path/file-with-a-foo.html', '/path/file-with-a-.html', '/path/file-with-a-foo.htm', '/path/foo-', '/path/foo-bar']),
    ).toEqual({
      '/path/file-with-a-foo.html': false,
      '/path/file-with-a-.html': false,
      '/path/file-with-a-foo.htm': true,
      '/path/foo-': false,
      '/path/foo-bar': true,
    });
  });

  it('compares percent-encoding in normal form (§2.2.2 table)', () => {
    const text = ['User-agent: *', 'Disallow: /foo/bar?baz=quz', 'Disallow: /foo/bar/ツ', 'Disallow: /foo/bar/%e3%83%85', 'Disallow: /foo/bar/%62%61%7A'].join(
      '\n',
    );
    expect(
      allowedPaths(text, 'bot', ['/foo/bar?baz=quz', '/foo/bar/ツ', '/foo/bar/%E3%83%84', '/foo/bar/%E3%83%85', '/foo/bar/baz', '/foo/bar?baz=other']),
    ).toEqual({
      '/foo/bar?baz=quz': false,
      '/foo/bar/ツ': false,
      '/foo/bar/%E3%83%84': false,
      '/foo/bar/%E3%83%85': false,
      '/foo/bar/baz': false,
      '/foo/bar?baz=other': true,
    });
  });
});

describe('parseRobotsTxt: groups and tokens', () => {
  it('merges groups that name the same agent and ignores other agents', () => {
    const text = 'User-agent: a\nDisallow: /one\n\nUser-agent: b\nDisallow: /\n\nUser-agent: A\nDisallow: /two\n';
    expect(allowedPaths(text, 'a', ['/one', '/two', '/three'])).toEqual({ '/one': false, '/two': false, '/three': true });
  });

  it('matches the product token of user-agent values case-insensitively, ignoring versions', () => {
    const text = 'User-agent: QuarryBot/2.1 (+https://quarry.dev)\nDisallow: /private\n';
    expect(parseRobotsTxt(text, 'quarrybot').isAllowed(`${site}/private/x`)).toBe(false);
    expect(parseRobotsTxt(text, 'QuarryBot/1.0').isAllowed(`${site}/private/x`)).toBe(false);
    expect(parseRobotsTxt(text, 'Quarry').isAllowed(`${site}/private/x`)).toBe(true);
  });

  it('allows a URL when any of the tokens is allowed', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: FireCrawlAgent\nAllow: /docs/\nDisallow: /\n';
    const rules = parseRobotsTxt(text, ['QuarryBot', 'FirecrawlAgent']);
    expect(rules.isAllowed(`${site}/docs/intro`)).toBe(true);
    expect(rules.isAllowed(`${site}/blog`)).toBe(false);
  });

  it('gives ties between Allow and Disallow of equal length to Allow', () => {
    const text = 'User-agent: *\nDisallow: /page\nAllow: /page\nDisallow: /x*\nAllow: /x$\n';
    expect(allowedPaths(text, 'bot', ['/page', '/x', '/xy'])).toEqual({ '/page': true, '/x': true, '/xy': false });
  });

  it('ignores rules before the first user-agent line and empty Disallow values', () => {
    const text = 'Disallow: /\nUser-agent: *\nDisallow:\n';
    expect(parseRobotsTxt(text, 'bot').isAllowed(`${site}/anything`)).toBe(true);
  });

  it('allows everything when no group matches and there is no * group', () => {
    expect(parseRobotsTxt('User-agent: other\nDisallow: /\n', 'bot').isAllowed(`${site}/`)).toBe(true);
    expect(parseRobotsTxt('', 'bot').isAllowed(`${site}/`)).toBe(true);
  });

  it('always allows /robots.txt', () => {
    expect(parseRobotsTxt('User-agent: *\nDisallow: /\n', 'bot').isAllowed(`${site}/robots.txt`)).toBe(true);
  });

  it('reads Crawl-delay of the selected group, fractional too, and the largest over tokens', () => {
    const text = 'User-agent: *\nCrawl-delay: 10\n\nUser-agent: quarrybot\nCrawl-delay: 0.5\nDisallow: /x\n';
    expect(parseRobotsTxt(text, 'QuarryBot').crawlDelaySeconds).toBe(0.5);
    expect(parseRobotsTxt(text, 'other').crawlDelaySeconds).toBe(10);
    // A group names quarrybot, so `*` (which FirecrawlAgent would fall into) does not apply.
    expect(parseRobotsTxt(text, ['QuarryBot', 'FirecrawlAgent']).crawlDelaySeconds).toBe(0.5);
    expect(
      parseRobotsTxt('User-agent: *\nCrawl-delay: 10\n\nUser-agent: FirecrawlAgent\nCrawl-delay: 2\n', ['QuarryBot', 'FirecrawlAgent']).crawlDelaySeconds,
    ).toBe(2);
    expect(parseRobotsTxt('User-agent: *\nCrawl-delay: soon\n', 'bot').crawlDelaySeconds).toBeUndefined();
  });

  it('obeys a group that names our token even when `*` allows everything', () => {
    const text = 'User-agent: QuarryBot\nDisallow: /docs/\n\nUser-agent: *\nAllow: /\n';
    expect(parseRobotsTxt(text, ['QuarryBot', 'FirecrawlAgent']).isAllowed(`${site}/docs/a`)).toBe(false);
    expect(parseRobotsTxt(text, ['OtherBot', 'FirecrawlAgent']).isAllowed(`${site}/docs/a`)).toBe(true);
  });

  it('treats a crawl-delay line as part of the group, so a later user-agent starts a new group', () => {
    const text = 'User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /\n';
    expect(parseRobotsTxt(text, 'a').isAllowed(`${site}/x`)).toBe(true);
    expect(parseRobotsTxt(text, 'b').crawlDelaySeconds).toBeUndefined();
  });
});

describe('parseRobotsTxt: tolerance', () => {
  it('survives a BOM, CRLF, comments, garbage, missing spaces, misspellings and bad bytes', () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('\ufeffUser-Agent:*\r\n# comment\r\nthis is garbage\r\n:::\r\nDisallow:/a # trailing\r\n'),
      0xff,
      0xfe,
      0x0a,
      ...new TextEncoder().encode('dissallow /b\r\nuseragent: nobody\r\nSITEMAP:https://example.com/s.xml\r\nSitemap: /relative.xml\r\n'),
    ]);
    const rules = parseRobotsTxt(bytes, 'bot');
    expect(allowedPaths(new TextDecoder().decode(bytes), 'bot', ['/a', '/a/b', '/b', '/c'])).toEqual({ '/a': false, '/a/b': false, '/b': false, '/c': true });
    expect(rules.isAllowed(`${site}/b`)).toBe(false);
    expect(rules.sitemaps).toEqual(['https://example.com/s.xml']);
  });

  it('compares a space in a pattern with its escape in the URL', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /my page\n', 'bot');
    expect(rules.isAllowed(`${site}/my page.html`)).toBe(false);
    expect(rules.isAllowed(`${site}/my%20page`)).toBe(false);
    expect(rules.isAllowed(`${site}/mypage`)).toBe(true);
  });

  it('collects sitemap lines from anywhere, deduplicated', () => {
    const text =
      'Sitemap: https://a.com/1.xml\nUser-agent: *\nSitemap: https://a.com/2.xml\nDisallow: /\nSitemap: https://a.com/1.xml\nSitemap: ftp://a.com/x\n';
    expect(parseRobotsTxt(text, 'bot').sitemaps).toEqual(['https://a.com/1.xml', 'https://a.com/2.xml']);
  });

  it('reads the first 500 KiB and ignores the rest', () => {
    const filler = `# ${'x'.repeat(maxRobotsBytes)}\n`;
    const rules = parseRobotsTxt(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`, 'bot');
    expect(rules.isAllowed(`${site}/early`)).toBe(false);
    expect(rules.isAllowed(`${site}/late`)).toBe(true);
  });

  it('accepts URL objects and bare paths, ignoring fragments', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /a$\n', 'bot');
    expect(rules.isAllowed(new URL(`${site}/a#frag`))).toBe(false);
    expect(rules.isAllowed('/a')).toBe(false);
    expect(rules.isAllowed('/a?q')).toBe(true);
  });

  it('matches many wildcards against a long path without backtracking', () => {
    const rules = parseRobotsTxt(`User-agent: *\nDisallow: /${'*a'.repeat(40)}*b$\n`, 'bot');
    expect(rules.isAllowed(`${site}/${'a'.repeat(20_000)}c`)).toBe(true);
    expect(rules.isAllowed(`${site}/${'a'.repeat(20_000)}b`)).toBe(false);
  });

  it('handles anchored patterns whose pieces would overlap', () => {
    const rules = parseRobotsTxt('User-agent: *\nDisallow: /ab*ba$\n', 'bot');
    expect(allowedPaths('User-agent: *\nDisallow: /ab*ba$\n', 'bot', ['/aba', '/abba', '/ab-ba', '/abbax'])).toEqual({
      '/aba': true,
      '/abba': false,
      '/ab-ba': false,
      '/abbax': true,
    });
    expect(rules.isAllowed(`${site}/ab`)).toBe(true);
  });
});

describe('robotsRulesFromStatus', () => {
  it('allows all on 4xx, disallows all on 5xx and 429, and defers otherwise', () => {
    expect(robotsRulesFromStatus(404)?.isAllowed(`${site}/x`)).toBe(true);
    expect(robotsRulesFromStatus(403)?.isAllowed(`${site}/x`)).toBe(true);
    expect(robotsRulesFromStatus(503)?.isAllowed(`${site}/x`)).toBe(false);
    expect(robotsRulesFromStatus(503)?.isAllowed(`${site}/robots.txt`)).toBe(true);
    expect(robotsRulesFromStatus(429)?.isAllowed(`${site}/x`)).toBe(false);
    expect(robotsRulesFromStatus(200)).toBeNull();
    expect(robotsRulesFromStatus(301)).toBeNull();
  });
});
