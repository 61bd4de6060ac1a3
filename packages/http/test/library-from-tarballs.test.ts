import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, type TestServer } from '@quarry/core/testing';
import { tsBlocks } from './support/readme-blocks.js';

/**
 * The README's way to get the library outside this repository: `npm pack` @quarry/core and
 * @quarry/adapters (built), `npm install` the tarballs in a project of its own (its other
 * dependencies come from the registry, or npm's cache), and run the README's first example there,
 * against a local site.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let site: TestServer;
let project: string;

beforeAll(async () => {
  site = await startTestServer(docsSiteRoutes());
  project = await mkdtemp(join(tmpdir(), 'quarry-scratch-'));
});

afterAll(async () => {
  await site?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the library outside the repository', () => {
  it('installs from npm pack tarballs and runs the README example', async () => {
    await run(npm, ['pack', '-w', 'packages/core', '-w', 'packages/adapters', '--pack-destination', project, '--silent'], { cwd: root });
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', './quarry-core-0.1.0.tgz', './quarry-adapters-0.1.0.tgz'], {
      cwd: project,
      timeout: 100_000,
    });

    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const example = tsBlocks(readme)[0]!.code;
    expect(example).toContain("from '@quarry/adapters'");
    // The same program, pointed at the local site (which the SSRF guard refuses unless allowed).
    const local = example.replaceAll('https://example.com', site.url).replace('new GotFetcher()', "new GotFetcher({ allowPrivateHosts: ['127.0.0.1'] })");
    await writeFile(join(project, 'example.mjs'), local);
    // The file the example parses: a real DOCX (made with LibreOffice, see the office fixtures).
    await copyFile(join(root, 'packages/core/test/fixtures/office/memo.docx'), join(project, 'report.docx'));
    const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: project, timeout: 60_000 });
    expect(stdout).toContain(`${site.url}/docs/`);
    expect(stdout).toMatch(/completed/);
  }, 120_000);
});
