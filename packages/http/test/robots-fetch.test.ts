import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GotFetcher } from '@quarry/adapters';
import { RobotsCache, systemClock } from '@quarry/core';
import { startTestServer, type TestServer } from '@quarry/core/testing';

/** robots.txt fetched for real: redirects (at most 5), 4xx allows all, 5xx disallows all. */
let site: TestServer;

beforeAll(async () => {
  site = await startTestServer(async (_request, response, url) => {
    const hops = /^\/hop\/(\d+)\/(\d+)$/.exec(url.pathname);
    if (hops) {
      const [left, total] = [Number(hops[1]), Number(hops[2])];
      response.writeHead(301, { location: left > 1 ? `/hop/${left - 1}/${total}` : '/real-robots' }).end();
      return;
    }
    if (url.pathname === '/real-robots') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /secret\n');
    if (url.pathname === '/huge-robots') {
      // 5 MB: comments, the rule at ~100 KB, then more comments (RFC 9309: parse at least 500 KiB).
      const filler = (bytes: number) => '# filler line of a very long robots.txt file\n'.repeat(Math.ceil(bytes / 46));
      return void response.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\n${filler(100_000)}Disallow: /secret\n${filler(5_000_000)}`);
    }
    response.writeHead(404).end();
  });
});

afterAll(async () => {
  await site?.close();
});

/** A fetcher whose /robots.txt answers as `answer` says (the cache always asks /robots.txt). */
function fetcherAnswering(answer: (path: string) => string) {
  const inner = new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] });
  return {
    name: 'http',
    fetch: (request: Parameters<GotFetcher['fetch']>[0]) => inner.fetch({ ...request, url: new URL(answer(request.url.pathname), site.url) }),
    close: () => inner.close(),
  };
}

describe('robots.txt fetching', () => {
  it('follows up to five redirects, and allows everything beyond', async () => {
    const five = new RobotsCache(
      fetcherAnswering(() => '/hop/5/5'),
      systemClock,
      ['QuarryBot'],
    );
    expect((await five.rulesFor(new URL(`${site.url}/`))).isAllowed(`${site.url}/secret`)).toBe(false);
    const six = new RobotsCache(
      fetcherAnswering(() => '/hop/6/6'),
      systemClock,
      ['QuarryBot'],
    );
    expect((await six.rulesFor(new URL(`${site.url}/`))).isAllowed(`${site.url}/secret`)).toBe(true);
  });

  it('honours a rule 100 KB into a 5 MB robots.txt (reads the first 500 KiB, not the whole file)', async () => {
    const huge = new RobotsCache(
      fetcherAnswering(() => '/huge-robots'),
      systemClock,
      ['QuarryBot'],
    );
    const rules = await huge.rulesFor(new URL(`${site.url}/`));
    expect(rules.isAllowed(`${site.url}/secret`)).toBe(false);
    expect(rules.isAllowed(`${site.url}/open`)).toBe(true);
  });

  it('allows all on 4xx and disallows all on 5xx or an unreachable host', async () => {
    const missing = new RobotsCache(
      fetcherAnswering(() => '/nothing-here'),
      systemClock,
      ['QuarryBot'],
    );
    expect((await missing.rulesFor(new URL(`${site.url}/`))).isAllowed(`${site.url}/secret`)).toBe(true);
    const unreachable = new RobotsCache(new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] }), systemClock, ['QuarryBot']);
    expect((await unreachable.rulesFor(new URL('http://127.0.0.1:9/'))).isAllowed('http://127.0.0.1:9/page')).toBe(false);
  });
});
