import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@quarry/core/testing';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * Stored pages are per team by default: the search index, the maxAge cache, map's known links and
 * change-tracking histories of one team are never another team's. QUARRY_SHARED_INDEX=true shares
 * them across teams.
 */
let site: MutableSite;

beforeAll(async () => {
  site = await startMutableSite({
    '/': articlePage('Intranet', ['The staff portal.'], { links: ['/payroll'] }),
    '/payroll': articlePage('Payroll', ['The wombat payroll runs on the third Thursday.']),
    '/hidden': articlePage('Hidden page', ['Only the index knows the numbat page.']),
  });
});

afterAll(async () => {
  await site?.close();
});

interface Teams {
  quarry: TestQuarry;
  call(team: 'a' | 'b', method: string, path: string, body?: unknown): Promise<any>;
}

async function startTeams(env: Record<string, string>): Promise<Teams> {
  const quarry = await startQuarry({ QUARRY_RATE_LIMITS: '', ...env });
  const ledger = quarry.services.ledger;
  const keys: Record<string, string> = {};
  for (const team of ['a', 'b'] as const) {
    await ledger.ensureTeam(`team-${team}`, team);
    keys[team] = (await ledger.createKey(`team-${team}`, 'k')).key;
  }
  return {
    quarry,
    async call(team, method, path, body) {
      const response = await fetch(`${quarry.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${keys[team]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = await response.json();
      expect(response.status, JSON.stringify(json)).toBe(200);
      return json;
    },
  };
}

/** Team A crawls the site and scrapes the unlinked page with change tracking. */
async function teamACrawls({ call }: Teams) {
  const { id } = await call('a', 'POST', '/v2/crawl', { url: `${site.url}/`, limit: 5, sitemap: 'skip' });
  await waitFor(async () => ((await call('a', 'GET', `/v2/crawl/${id}`)).status === 'completed' ? true : undefined), {
    timeoutMs: 30_000,
    message: 'crawl end',
  });
  await call('a', 'POST', '/v2/scrape', { url: `${site.url}/hidden`, formats: ['markdown', 'changeTracking'] });
}

const webUrls = (answer: { data: { web: Array<{ url: string }> } }) => answer.data.web.map((hit) => new URL(hit.url).pathname);

describe('per team by default', () => {
  let teams: Teams;

  beforeAll(async () => {
    teams = await startTeams({});
    await teamACrawls(teams);
  }, 60_000);

  afterAll(async () => {
    await teams?.quarry.close();
  });

  it('team B does not find in search a page only team A crawled; team A does', async () => {
    expect(webUrls(await teams.call('a', 'POST', '/v2/search', { query: 'wombat payroll' }))).toContain('/payroll');
    expect(webUrls(await teams.call('b', 'POST', '/v2/search', { query: 'wombat payroll' }))).toEqual([]);
  });

  it('team B with maxAge is not served team A\u2019s cached copy: the page is fetched again', async () => {
    const before = site.hits('/payroll');
    const answer = await teams.call('b', 'POST', '/v2/scrape', { url: `${site.url}/payroll`, maxAge: 3_600_000 });
    expect(answer.data.metadata.cacheState).toBe('miss');
    expect(site.hits('/payroll')).toBe(before + 1);
    const again = await teams.call('a', 'POST', '/v2/scrape', { url: `${site.url}/payroll`, maxAge: 3_600_000 });
    expect(again.data.metadata.cacheState).toBe('hit');
  });

  it('team B\u2019s map does not list the pages team A\u2019s index knows', async () => {
    const links = (await teams.call('b', 'POST', '/v2/map', { url: `${site.url}/`, sitemap: 'skip' })).links.map(
      (link: { url: string }) => new URL(link.url).pathname,
    );
    expect(links).not.toContain('/hidden');
    const own = (await teams.call('a', 'POST', '/v2/map', { url: `${site.url}/`, sitemap: 'skip' })).links.map(
      (link: { url: string }) => new URL(link.url).pathname,
    );
    expect(own).toContain('/hidden');
  });

  it('team B\u2019s change tracking starts its own history', async () => {
    const answer = await teams.call('b', 'POST', '/v2/scrape', { url: `${site.url}/hidden`, formats: ['markdown', 'changeTracking'] });
    expect(answer.data.changeTracking).toMatchObject({ changeStatus: 'new', previousScrapeAt: null });
  });
});

describe('QUARRY_SHARED_INDEX=true', () => {
  let teams: Teams;

  beforeAll(async () => {
    teams = await startTeams({ QUARRY_SHARED_INDEX: 'true' });
    await teamACrawls(teams);
  }, 60_000);

  afterAll(async () => {
    await teams?.quarry.close();
  });

  it('team B finds team A\u2019s pages, is served its cached copy, and continues its change history', async () => {
    expect(webUrls(await teams.call('b', 'POST', '/v2/search', { query: 'wombat payroll' }))).toContain('/payroll');
    const before = site.hits('/payroll');
    const answer = await teams.call('b', 'POST', '/v2/scrape', { url: `${site.url}/payroll`, maxAge: 3_600_000 });
    expect(answer.data.metadata.cacheState).toBe('hit');
    expect(site.hits('/payroll')).toBe(before);
    const links = (await teams.call('b', 'POST', '/v2/map', { url: `${site.url}/`, sitemap: 'skip' })).links.map(
      (link: { url: string }) => new URL(link.url).pathname,
    );
    expect(links).toContain('/hidden');
    const tracked = await teams.call('b', 'POST', '/v2/scrape', { url: `${site.url}/hidden`, formats: ['markdown', 'changeTracking'] });
    expect(tracked.data.changeTracking).toMatchObject({ changeStatus: 'same' });
  });
});
