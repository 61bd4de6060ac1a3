import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, waitFor, type TestServer } from '@quarry/core/testing';
import { DashboardClient } from './support/dashboard-client.js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/**
 * The dashboard's security over plain HTTP, against the real server: sessions are scoped to one
 * team, forms refuse cross-site posts, cookies and headers are locked down, tampered sessions and
 * revoked keys stop working, and dashboard requests count against the team's rate limits.
 */
const adminToken = 'admin-token-for-the-security-tests';
let site: TestServer;
let quarry: TestQuarry;
let keyA: string;
let keyB: string;
let jobA: string;

async function api(path: string, key: string, body?: unknown) {
  const response = await fetch(`${quarry.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  // Sign-ins are limited per address at the crawl rate; this suite signs in more often than 15 a minute.
  quarry = await startQuarry({ QUARRY_ADMIN_TOKEN: adminToken, QUARRY_TRANSFORM_THREADS: '1', QUARRY_RATE_LIMITS: 'crawl=200' });
  const { ledger } = quarry.services;
  for (const team of ['team-a', 'team-b']) await ledger.ensureTeam(team, team);
  keyA = (await ledger.createKey('team-a', 'a-main')).key;
  keyB = (await ledger.createKey('team-b', 'b-main')).key;
  const started = await api('/v2/crawl', keyA, { url: `${site.url}/docs/`, limit: 3 });
  expect(started.status).toBe(200);
  jobA = started.body.id;
  await waitFor(async () => (await api(`/v2/crawl/${jobA}`, keyA)).body.status === 'completed', { message: 'team A crawl' });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('dashboard sessions', () => {
  it('signs in with a team key into an HttpOnly, SameSite=Strict cookie scoped to /dashboard', async () => {
    const client = new DashboardClient(quarry.url);
    const response = await client.signIn(keyA);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard');
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('quarry_session='))!;
    expect(cookie).toMatch(/; Path=\/dashboard; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    expect(cookie).not.toContain('Secure');
    expect(cookie).not.toContain(keyA);
    expect(cookie).not.toContain(keyA.slice(3));
    const usage = await client.page('/dashboard/usage');
    expect(usage.status).toBe(200);
    expect(usage.text).toContain('Team team-a');
  });

  it('marks the cookie Secure when TLS was terminated by a proxy', async () => {
    const client = new DashboardClient(quarry.url);
    const form = await client.page('/dashboard/login');
    const nonce = /name="_csrf" value="([^"]+)"/.exec(form.text)![1]!;
    const response = await client.post('/dashboard/login', { _csrf: nonce, secret: keyA }, { 'x-forwarded-proto': 'https' });
    expect(response.headers.getSetCookie().find((line) => line.startsWith('quarry_session='))).toMatch(/; Secure$/);
  });

  it('refuses wrong secrets, tampered cookies, and pages of the other role', async () => {
    const client = new DashboardClient(quarry.url);
    expect((await client.signIn('fc-' + '0'.repeat(40))).status).toBe(401);
    expect((await client.signIn('not-the-admin-token')).status).toBe(401);
    expect((await client.page('/dashboard/keys')).response.headers.get('location')).toBe('/dashboard/login');

    await client.signIn(keyA);
    const [payload, signature] = client.cookies.get('quarry_session')!.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    forged.teamId = 'team-b';
    client.cookies.set('quarry_session', `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`);
    const redirected = await client.page('/dashboard/jobs');
    expect(redirected.status).toBe(303);
    expect(redirected.response.headers.get('location')).toBe('/dashboard/login');

    const team = new DashboardClient(quarry.url);
    await team.signIn(keyA);
    expect((await team.page('/dashboard/admin')).response.headers.get('location')).toBe('/dashboard');
    const admin = new DashboardClient(quarry.url);
    expect((await admin.signIn(adminToken)).status).toBe(303);
    expect((await admin.page('/dashboard/jobs')).response.headers.get('location')).toBe('/dashboard');
    expect((await admin.page('/dashboard/admin')).text).toContain('team-a');
  });

  it('sends a strict content security policy and no caching on every page', async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(keyA);
    const { response } = await client.page('/dashboard/keys');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('team isolation', () => {
  it("never shows another team's job: list, page, progress, results and cancel answer like an unknown id", async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(keyB);
    expect((await client.page('/dashboard/jobs')).text).not.toContain(jobA);
    for (const path of [`/dashboard/jobs/${jobA}`, `/dashboard/jobs/${jobA}/pages/0`, `/dashboard/jobs/${jobA}/cancel`]) {
      const page = await client.page(path);
      expect(page.status, path).toBe(404);
      expect(page.text).not.toContain(site.url);
    }
    const progress = await client.request(`/dashboard/jobs/${jobA}/progress`, { headers: { accept: 'application/json' } });
    expect(progress.status).toBe(404);
    expect(await client.page(`/dashboard/jobs/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).toMatchObject({ status: 404 });
    const cancel = await client.post(`/dashboard/jobs/${jobA}/cancel`, { _csrf: await client.csrf() });
    expect(cancel.status).toBe(404);

    const owner = new DashboardClient(quarry.url);
    await owner.signIn(keyA);
    const own = await owner.page(`/dashboard/jobs/${jobA}`);
    expect(own.status).toBe(200);
    expect(own.text).toContain('completed');
    expect((await owner.page(`/dashboard/jobs/${jobA}/pages/0`)).status).toBe(200);
  });

  it("shows an llms.txt job's result, escaped, to its team only", async () => {
    const started = await api('/v1/llmstxt', keyA, { url: `${site.url}/docs/`, maxUrls: 2 });
    expect(started.status).toBe(200);
    await waitFor(async () => (await api(`/v1/llmstxt/${started.body.id}`, keyA)).body.status === 'completed', { message: 'llms.txt job' });
    const owner = new DashboardClient(quarry.url);
    await owner.signIn(keyA);
    const page = await owner.page(`/dashboard/jobs/${started.body.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h2>Result</h2>');
    expect(page.text).toContain('llmstxt');
    expect(page.text).not.toMatch(/<pre[^>]*>[^<]*<script/i);
    const other = new DashboardClient(quarry.url);
    await other.signIn(keyB);
    expect((await other.page(`/dashboard/jobs/${started.body.id}`)).status).toBe(404);
  });

  it("cannot see or revoke another team's keys", async () => {
    const keysOfA = await quarry.services.ledger.listKeys('team-a');
    const client = new DashboardClient(quarry.url);
    await client.signIn(keyB);
    const page = await client.page('/dashboard/keys');
    expect(page.text).not.toContain('a-main');
    expect(page.text).not.toContain(keysOfA[0]!.id);
    expect((await client.post(`/dashboard/keys/${keysOfA[0]!.id}/revoke`, { _csrf: await client.csrf() })).status).toBe(404);
    expect((await api('/v2/team/credit-usage', keyA)).status).toBe(200);
  });
});

describe('cross-site requests', () => {
  it('refuses forms from another origin, from a cross-site context, or without the session token', async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(keyA);
    const csrf = await client.csrf();
    const attempts: Array<{ fields: Record<string, string>; headers: Record<string, string> }> = [
      { fields: { _csrf: csrf, name: 'evil-origin' }, headers: { origin: 'http://evil.example' } },
      { fields: { _csrf: csrf, name: 'evil-site' }, headers: { 'sec-fetch-site': 'cross-site' } },
      { fields: { _csrf: csrf, name: 'evil-null' }, headers: { origin: 'null' } },
      { fields: { name: 'no-token' }, headers: {} },
      { fields: { _csrf: csrf.slice(0, -2) + 'xx', name: 'bad-token' }, headers: {} },
    ];
    for (const attempt of attempts) {
      const response = await client.post('/dashboard/keys', attempt.fields, attempt.headers);
      expect(response.status, attempt.fields.name).toBe(403);
    }
    const other = new DashboardClient(quarry.url);
    await other.signIn(keyB);
    expect((await client.post('/dashboard/keys', { _csrf: await other.csrf(), name: 'other-token' })).status).toBe(403);
    const names = (await quarry.services.ledger.listKeys('team-a')).map((key) => key.name);
    expect(names).not.toEqual(expect.arrayContaining(['evil-origin', 'evil-site', 'evil-null', 'no-token', 'bad-token', 'other-token']));

    expect((await client.post('/dashboard/keys', { _csrf: csrf, name: 'same-site' })).status).toBe(200);
    // Behind a TLS-terminating proxy: the page is https, and the proxy may rewrite Host.
    const host = new URL(quarry.url).host;
    expect((await client.post('/dashboard/keys', { _csrf: csrf, name: 'behind-tls' }, { origin: `https://${host}` })).status).toBe(200);
    expect(
      (await client.post('/dashboard/keys', { _csrf: csrf, name: 'proxied' }, { origin: 'https://quarry.example', 'x-forwarded-host': 'quarry.example' }))
        .status,
    ).toBe(200);
    expect((await quarry.services.ledger.listKeys('team-a')).map((key) => key.name)).toContain('same-site');
  });

  it('refuses a cross-site sign-in and a sign-in without its form token', async () => {
    const client = new DashboardClient(quarry.url);
    const form = await client.page('/dashboard/login');
    const nonce = /name="_csrf" value="([^"]+)"/.exec(form.text)![1]!;
    expect((await client.post('/dashboard/login', { _csrf: nonce, secret: keyA }, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await client.post('/dashboard/login', { _csrf: 'forged', secret: keyA })).status).toBe(403);
    const fresh = new DashboardClient(quarry.url);
    expect((await fresh.post('/dashboard/login', { _csrf: nonce, secret: keyA })).status).toBe(303); // no form cookie: back to the form
    expect(fresh.cookies.has('quarry_session')).toBe(false);
  });

  it('refuses JSON and other bodies on dashboard forms', async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(keyA);
    const json = await client.request('/dashboard/keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: quarry.url },
      body: JSON.stringify({ _csrf: await client.csrf(), name: 'json' }),
    });
    expect(json.status).toBe(403);
    const text = await client.request('/dashboard/keys', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name=plain' });
    expect(text.status).toBe(403);
    const multipart = new FormData();
    multipart.set('name', 'multipart');
    expect((await client.request('/dashboard/keys', { method: 'POST', body: multipart })).status).toBe(415);
    expect((await quarry.services.ledger.listKeys('team-a')).map((key) => key.name)).not.toEqual(expect.arrayContaining(['json', 'plain', 'multipart']));
  });
});

describe('revocation and rate limits', () => {
  it('ends a session for good on sign-out: a copy of its cookie signs nobody in', async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(keyA);
    const stolen = new DashboardClient(quarry.url);
    for (const [name, value] of client.cookies) stolen.cookies.set(name, value);
    expect((await stolen.page('/dashboard/keys')).status).toBe(200);
    const signedOut = await client.post('/dashboard/logout', { _csrf: await client.csrf() });
    expect(signedOut.headers.get('location')).toBe('/dashboard/login');
    expect((await stolen.page('/dashboard/keys')).response.headers.get('location')).toBe('/dashboard/login');
    // Signing in again gives a new session that works.
    await client.signIn(keyA);
    expect((await client.page('/dashboard/keys')).status).toBe(200);
  });

  it('ends a session on the request after its key is revoked', async () => {
    const { key, id } = await quarry.services.ledger.createKey('team-b', 'short-lived');
    const client = new DashboardClient(quarry.url);
    await client.signIn(key);
    expect((await client.page('/dashboard/keys')).status).toBe(200);
    await quarry.services.ledger.revokeKey(id);
    expect((await client.page('/dashboard/keys')).response.headers.get('location')).toBe('/dashboard/login');
    expect((await client.signIn(key)).status).toBe(401);
  });

  it("counts dashboard requests against the team's rate limit", async () => {
    const limited = await startQuarry({ QUARRY_ADMIN_TOKEN: adminToken, QUARRY_RATE_LIMITS: 'crawlStatus=4,crawl=2' });
    try {
      await limited.services.ledger.ensureTeam('busy', 'busy');
      const { key } = await limited.services.ledger.createKey('busy', 'k');
      const client = new DashboardClient(limited.url);
      await client.signIn(key);
      const statuses: number[] = [];
      for (let index = 0; index < 5; index++) statuses.push((await client.page('/dashboard/keys')).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const limitedPage = await client.page('/dashboard/usage');
      expect(limitedPage.response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await fetch(`${limited.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(429);
      // Sign-in attempts are limited per client address (the crawl rate: 2 a minute here, 1 used above).
      const guesser = new DashboardClient(limited.url);
      expect((await guesser.signIn('wrong-guess-number-one')).status).toBe(401);
      expect((await guesser.signIn('wrong-guess-number-two')).status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
