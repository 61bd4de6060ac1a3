import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry } from './support/quarry-server.js';
import { articlePage, startMutableSite, type MutableSite } from './support/mutable-site.js';

/** `quarry index <url>` (the built bin) fills the store that the server's /search reads. */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
const run = promisify(execFile);
let site: MutableSite;
let folder: string;

beforeAll(async () => {
  site = await startMutableSite({
    '/': articlePage('Garden', ['How to grow things.'], { links: ['/tomatoes', '/basil'] }),
    '/tomatoes': articlePage('Tomatoes', ['Tomatoes want sun, water and a stake.']),
    '/basil': articlePage('Basil', ['Basil hates cold nights.']),
  });
  folder = await mkdtemp(join(tmpdir(), 'quarry-index-'));
});

afterAll(async () => {
  await site?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('quarry index', () => {
  it('crawls a site into the index, and the server then finds its pages by body words', async () => {
    const dataDir = join(folder, 'data');
    const { stdout } = await run(process.execPath, [bin, 'index', `${site.url}/`, '--allow-private-hosts', '127.0.0.1', '--sitemap', 'skip'], {
      env: { ...process.env, QUARRY_DATA_DIR: dataDir, QUARRY_TRANSFORM_THREADS: '1' },
      timeout: 60_000,
    });
    expect(stdout).toContain(`indexed ${site.url}/tomatoes`);
    expect(stdout).toContain('3 pages indexed, 0 failed (completed)');

    const quarry = await startQuarry({}, dataDir);
    try {
      const response = await fetch(`${quarry.url}/v2/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'cold nights' }),
      });
      const answer = await response.json();
      expect(answer.data.web.map((result: { url: string }) => result.url)).toEqual([`${site.url}/basil`]);
    } finally {
      await quarry.close();
    }
  });
});
