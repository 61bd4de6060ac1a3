import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';
import { DashboardClient } from './support/dashboard-client.js';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** A finished crawl's results download from its dashboard page: JSONL, and a zip of markdown files. */
const run = promisify(execFile);
let site: TestServer;
let quarry: TestQuarry;
let key: string;
let otherKey: string;
let jobId: string;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  quarry = await startQuarry({ QUARRY_TRANSFORM_THREADS: '1' });
  const { ledger } = quarry.services;
  for (const team of ['team-a', 'team-b']) {
    await ledger.ensureTeam(team, team);
    await ledger.setCredits(team, 1000);
  }
  key = (await ledger.createKey('team-a', 'main')).key;
  otherKey = (await ledger.createKey('team-b', 'main')).key;
  const started = await fetch(`${quarry.url}/v2/crawl`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}/docs/`, limit: 3 }),
  });
  jobId = ((await started.json()) as { id: string }).id;
  for (let attempt = 0; attempt < 300; attempt++) {
    const status = (await (await fetch(`${quarry.url}/v2/crawl/${jobId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string };
    if (status.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 60_000);

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

describe('crawl result downloads', () => {
  it('the job page links both downloads; JSONL has one document per line', async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(key);
    const page = await client.page(`/dashboard/jobs/${jobId}`);
    expect(page.text).toContain(`/dashboard/jobs/${jobId}/results.jsonl`);
    expect(page.text).toContain(`/dashboard/jobs/${jobId}/results.zip`);
    const jsonl = await client.page(`/dashboard/jobs/${jobId}/results.jsonl`);
    expect(jsonl.response.headers.get('content-disposition')).toMatch(/attachment; filename="crawl-.*\.jsonl"/);
    const documents = jsonl.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { markdown: string; metadata: { sourceURL: string } });
    expect(documents).toHaveLength(3);
    for (const document of documents) expect(document.markdown).toContain(tokenOf(new URL(document.metadata.sourceURL).pathname));
  });

  it('the zip holds one markdown file per page, readable by unzip', async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(key);
    const response = await client.request(`/dashboard/jobs/${jobId}/results.zip`, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(response.headers.get('content-type')).toBe('application/zip');
    const folder = await mkdtemp(join(tmpdir(), 'quarry-zip-'));
    try {
      await writeFile(join(folder, 'results.zip'), Buffer.from(await response.arrayBuffer()));
      await run('python3', ['-m', 'zipfile', '-e', join(folder, 'results.zip'), join(folder, 'out')]);
      const files = (await readdir(join(folder, 'out'))).sort();
      expect(files).toHaveLength(3);
      expect(files[0]).toMatch(/^0001-127\.0\.0\.1-docs.*\.md$/);
      const contents = await Promise.all(files.map((file) => readFile(join(folder, 'out', file), 'utf8')));
      expect(contents.some((text) => text.includes(tokenOf('/docs/')))).toBe(true);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('another team cannot download them', async () => {
    const client = new DashboardClient(quarry.url);
    await client.signIn(otherKey);
    expect((await client.page(`/dashboard/jobs/${jobId}/results.jsonl`)).status).toBe(404);
    expect((await client.page(`/dashboard/jobs/${jobId}/results.zip`)).status).toBe(404);
  });
});
