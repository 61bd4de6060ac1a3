import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/** The import cycle check that runs with every test command: it must name each cycle, and only cycles. */
const script = fileURLToPath(new URL('../../../scripts/check-cycles.mjs', import.meta.url));
const run = promisify(execFile);
const folders: string[] = [];

async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'quarry-cycles-'));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
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

describe('import cycle check', () => {
  it('passes on this repository', async () => {
    const result = await check(fileURLToPath(new URL('../../..', import.meta.url)));
    expect(result).toMatchObject({ ok: true });
  });

  it('fails on a cycle through three files, type-only imports and folder indexes included', async () => {
    const root = await tree({
      'packages/core/src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'packages/core/src/b.ts': "import type { C } from './sub/index.js';\nexport const b = 1 as C;\n",
      'packages/core/src/sub/index.ts': "export { c as C } from '../a.js';\n",
    });
    const result = await check(root);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('- packages/core/src/a.ts <-> packages/core/src/b.ts <-> packages/core/src/sub/index.ts');
  });

  it('passes on a chain without a way back, and ignores package imports and tests', async () => {
    const root = await tree({
      'packages/http/src/a.ts': "import { b } from './b.js';\nimport { x } from '@quarry/core';\nexport const a = b + x;\n",
      'packages/http/src/b.ts': 'export const b = 1;\n',
      'packages/http/src/b.test.ts': "import { a } from './a.js';\n",
    });
    expect(await check(root)).toMatchObject({ ok: true });
  });
});
