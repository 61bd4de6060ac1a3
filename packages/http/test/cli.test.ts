import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, tokenOf, type TestServer } from '@quarry/core/testing';

/** The `quarry` command, run as users run it (the built bin; npm test builds first). */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
const run = promisify(execFile);
let site: TestServer;
let folder: string;

async function quarry(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      env: { ...process.env, QUARRY_DATA_DIR: join(folder, 'data'), ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  folder = await mkdtemp(join(tmpdir(), 'quarry-cli-'));
});

afterAll(async () => {
  await site?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('quarry scrape', () => {
  it('prints the main content as markdown', async () => {
    const result = await quarry(['scrape', `${site.url}/docs/install`, '--allow-private-hosts', '127.0.0.1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('# Install');
    expect(result.stdout).toContain(tokenOf('/docs/install'));
    expect(result.stdout).not.toContain('© Docs Site');
  });

  it('prints other formats and the whole document', async () => {
    const links = await quarry(['scrape', `${site.url}/docs/`, '--format', 'links', '--allow-private-hosts']);
    expect(links.stdout.split('\n')).toContain(`${site.url}/docs/install`);
    const whole = await quarry(['scrape', `${site.url}/about`, '--json', '--no-main-content', '--exclude-tags', 'footer', '--allow-private-hosts']);
    const document = JSON.parse(whole.stdout);
    expect(document.metadata.title).toBe('About | Docs Site');
    expect(document.markdown).toContain('Docs Site');
    expect(document.markdown).not.toContain('©');
  });

  it('prints the first part of a page past a per-page bound and the warning on stderr', async () => {
    const cut = await quarry(['scrape', `${site.url}/docs/install`, '--no-main-content', '--allow-private-hosts', '127.0.0.1'], {
      QUARRY_MAX_PAGE_ELEMENTS: '8',
    });
    expect(cut.code).toBe(0);
    expect(cut.stdout.length).toBeGreaterThan(0);
    expect(cut.stdout).not.toContain(tokenOf('/docs/install'));
    expect(cut.stderr).toMatch(/^quarry: warning: The page has more than 8 elements \(QUARRY_MAX_PAGE_ELEMENTS\): only its first \d+ of \d+ characters/m);
  });

  it('fails with one line and a non-zero code', async () => {
    const refused = await quarry(['scrape', `${site.url}/about`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^quarry: .*127\.0\.0\.1.*--allow-private-hosts/);
    const invalid = await quarry(['scrape', 'ftp://example.com/x']);
    expect(invalid.code).not.toBe(0);
    expect(invalid.stderr).toBe('quarry: `url` must use http or https; got "ftp"\n');
  });
});

describe('quarry crawl and map', () => {
  it('writes one markdown file per page and pages.jsonl', async () => {
    const out = join(folder, 'crawl');
    const result = await quarry(['crawl', `${site.url}/docs/`, '--limit', '4', '--out', out, '--allow-private-hosts']);
    expect(result.code).toBe(0);
    const files = (await readdir(out)).filter((name) => name.endsWith('.md'));
    expect(files).toHaveLength(4);
    const index = (await readFile(join(out, 'pages.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(index).toHaveLength(4);
    for (const entry of index) {
      expect(entry).toMatchObject({ url: expect.stringContaining('/docs/'), status: 200, title: expect.any(String), file: expect.stringMatching(/\.md$/) });
      expect(await readFile(join(out, entry.file), 'utf8')).toContain(tokenOf(new URL(entry.url).pathname));
    }
    expect(result.stderr).toMatch(/crawl completed: 4 pages, 0 errors/);
  });

  it('streams JSON lines with --json', async () => {
    const result = await quarry(['crawl', `${site.url}/blog/`, '--json', '--allow-private-hosts']);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((document) => new URL(document.metadata.url).pathname).sort()).toEqual(['/blog/', '/blog/first-post', '/blog/second-post']);
  });

  it('maps a site, one URL per line', async () => {
    const result = await quarry(['map', `${site.url}/`, '--search', 'install', '--limit', '5', '--allow-private-hosts']);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(`${site.url}/docs/install`);
  });
});

describe('quarry keys and teams', () => {
  it('creates a key (printed last), lists it without the secret, revokes it, and sets credits', async () => {
    const created = await quarry(['keys', 'create', '--team', 'acme', '--name', 'ci', '--credits', '50']);
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split('\n').at(-1)!;
    expect(key).toMatch(/^fc-[0-9a-f]{40}$/);
    const listed = await quarry(['keys', 'list', '--team', 'acme']);
    expect(listed.stdout).toContain('\tacme\tci\t');
    expect(listed.stdout).not.toContain(key);
    const id = listed.stdout.split('\t')[0]!;
    expect((await quarry(['keys', 'revoke', id])).stdout).toBe(`Revoked ${id}\n`);
    expect((await quarry(['keys', 'list', '--team', 'acme'])).stdout).toContain('revoked');
    expect((await quarry(['teams', 'credit', 'acme'])).stdout).toBe('acme\t50\n');
    // Revoking by the key itself (often all an operator has): its id is printed, never the secret.
    const second = (await quarry(['keys', 'create', '--team', 'acme', '--name', 'second'])).stdout.trim().split('\n').at(-1)!;
    const revoked = await quarry(['keys', 'revoke', second]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toMatch(/^Revoked \S+\n$/);
    expect(revoked.stdout).not.toContain(second);
    expect((await quarry(['keys', 'revoke', second])).code).not.toBe(0); // no longer active
    expect((await quarry(['teams', 'credit', 'acme', '75'])).stdout).toBe('acme\t75\n');
    expect((await quarry(['teams', 'tokens', 'acme'])).stdout).toBe('acme\tunlimited\t0 used\n');
    expect((await quarry(['teams', 'tokens', 'acme', '100000'])).stdout).toBe('acme\t100000\t0 used\n');
  }, 120_000); // ten processes: slow on a loaded machine

  it('says which data folder a command uses, and a read-only command creates none', async () => {
    const listed = await quarry(['keys', 'list']);
    expect(listed.stderr).toBe(`Data folder: ${join(folder, 'data')}\n`);
    const elsewhere = await mkdtemp(join(tmpdir(), 'quarry-elsewhere-'));
    try {
      const env = { ...process.env };
      delete env.QUARRY_DATA_DIR;
      for (const args of [
        ['keys', 'list'],
        ['teams', 'credit', 'acme'],
        ['keys', 'revoke', 'some-id'],
      ]) {
        const result = await run(process.execPath, [bin, ...args], { cwd: elsewhere, env }).then(
          () => ({ code: 0, stderr: '' }),
          (error: { code: number; stderr: string }) => error,
        );
        expect(result.code).not.toBe(0);
        expect(result.stderr).toBe(
          `quarry: No Quarry data in ${join(elsewhere, '.quarry')} (QUARRY_DATA_DIR unset: ./.quarry of this folder). Run the command in the folder where the server runs, or set QUARRY_DATA_DIR to its data folder.\n`,
        );
      }
      expect(await readdir(elsewhere)).toEqual([]);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses to serve a public address without keys', async () => {
    const result = await quarry(['serve', '--host', '0.0.0.0', '--port', '0'], { QUARRY_DATA_DIR: join(folder, 'fresh') });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/Refusing to serve 0\.0\.0\.0 without API keys/);
  });
});
