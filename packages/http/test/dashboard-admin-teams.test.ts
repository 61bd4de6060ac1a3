import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, type TestServer } from '@quarry/core/testing';
import { csrfOf, DashboardClient } from './support/dashboard-client.js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** The admin sees any team's recent jobs and can revoke any of its keys. */
const adminToken = 'operator-secret-for-the-admin-teams-test';
let site: TestServer;
let quarry: TestQuarry;
let key: { id: string; key: string };

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_ADMIN_TOKEN: adminToken, QUARRY_TRANSFORM_THREADS: '1' });
  const { ledger } = quarry.services;
  await ledger.ensureTeam('acme', 'acme');
  await ledger.setCredits('acme', 100);
  key = await ledger.createKey('acme', 'ci');
  await fetch(`${quarry.url}/v2/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/docs/`, limit: 2 }),
  });
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('admin: a team’s jobs and keys', () => {
  it('lists the team’s jobs, and revokes its key at once', async () => {
    const admin = new DashboardClient(quarry.url);
    await admin.signIn(adminToken);
    const page = await admin.page('/dashboard/admin/teams/acme');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Recent jobs');
    expect(page.text).toContain(`${site.url}/docs/`);
    expect(page.text).toContain(`/dashboard/admin/teams/acme/keys/${key.id}/revoke`);

    const revoked = await admin.post(`/dashboard/admin/teams/acme/keys/${key.id}/revoke`, { _csrf: csrfOf(page.text) });
    expect(revoked.status).toBe(200);
    expect(await revoked.text()).toContain('Key “ci” of acme revoked');
    const api = await fetch(`${quarry.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${key.key}` } });
    expect(api.status).toBe(401);
    // Revoked already: nothing to revoke twice.
    const again = await admin.post(`/dashboard/admin/teams/acme/keys/${key.id}/revoke`, { _csrf: csrfOf(page.text) });
    expect(again.status).toBe(404);
  });

  it('a team key cannot use the admin revoke', async () => {
    const other = await quarry.services.ledger.createKey('acme', 'other');
    const team = new DashboardClient(quarry.url);
    await team.signIn(other.key);
    const keysPage = await team.page('/dashboard/keys');
    const response = await team.post(`/dashboard/admin/teams/acme/keys/${other.id}/revoke`, { _csrf: csrfOf(keysPage.text) });
    expect(response.status).toBe(403);
  });
});
