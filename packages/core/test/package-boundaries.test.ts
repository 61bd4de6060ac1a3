import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/** The boundary check that runs with every test command: it must fail when core does I/O. */
const script = fileURLToPath(new URL('../../../scripts/check-boundaries.mjs', import.meta.url));
const run = promisify(execFile);
const folders: string[] = [];

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'quarry-boundaries-'));
  folders.push(root);
  for (const pkg of ['core', 'adapters', 'storage', 'http']) await mkdir(join(root, 'packages', pkg, 'src'), { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(root, path), text);
  return root;
}

async function check(root: string) {
  try {
    const { stdout } = await run(process.execPath, [script, root]);
    return { ok: true, output: stdout };
  } catch (error) {
    return { ok: false, output: (error as { stderr: string }).stderr };
  }
}

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('package boundary check', () => {
  it('passes on this repository', async () => {
    expect((await check(fileURLToPath(new URL('../../..', import.meta.url)))).ok).toBe(true);
  });

  it('fails when core imports an I/O library', async () => {
    const root = await tree({ 'packages/core/src/bad.ts': "import { readFile } from 'node:fs/promises';\nimport got from 'got-scraping';\n" });
    const result = await check(root);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('packages/core/src/bad.ts: core must stay pure but imports the I/O library "node:fs/promises"');
    expect(result.output).toContain('"got-scraping"');
  });

  it('fails when a package imports against the dependency direction', async () => {
    const root = await tree({ 'packages/adapters/src/bad.ts': "import { x } from '@quarry/http';\n" });
    expect((await check(root)).output).toContain('adapters must not import @quarry/http');
  });

  it('fails when a route charges the Ledger itself instead of going through Billing', async () => {
    const root = await tree({
      'packages/http/src/route.ts': "export async function route(services) {\n  await services.ledger.charge('team', 1, 'scrape');\n}\n",
    });
    await mkdir(join(root, 'packages/core/src/billing'), { recursive: true });
    await writeFile(
      join(root, 'packages/core/src/billing/billing.ts'),
      "export const charge = (ledger) => ledger.chargeUsage('team', { credits: 1, tokens: 0 }, 'scrape');\n",
    );
    const result = await check(root);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('packages/http/src/route.ts:2: charges the Ledger directly');
    expect(result.output).not.toContain('packages/core/src/billing/billing.ts:');
  });

  it('lets tests and conformance suites in core run servers', async () => {
    const root = await tree({ 'packages/core/src/thing.test.ts': "import { createServer } from 'node:http';\n" });
    expect((await check(root)).ok).toBe(true);
  });
});
