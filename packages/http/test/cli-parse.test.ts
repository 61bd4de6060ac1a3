import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docxFile, xlsxFile } from '@quarry/core/testing';

/** `quarry parse <file>`, run as users run it (the built bin). */
const bin = fileURLToPath(new URL('../bin/quarry.js', import.meta.url));
const run = promisify(execFile);
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
  folder = await mkdtemp(join(tmpdir(), 'quarry-cli-parse-'));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('quarry parse', () => {
  it('prints a DOCX as markdown, an XLSX as JSON with its sheet count', async () => {
    const docx = join(folder, 'memo.docx');
    await writeFile(docx, docxFile({ title: 'Memo', blocks: [{ heading: 'Memo' }, { paragraph: 'Meet at noon.' }] }));
    const result = await quarry(['parse', docx]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('# Memo\n\nMeet at noon.\n');
    const xlsx = join(folder, 'sheet.xlsx');
    await writeFile(
      xlsx,
      xlsxFile({
        sheets: [
          {
            name: 'Data',
            rows: [
              ['a', 'b'],
              [1, 2],
            ],
          },
        ],
      }),
    );
    const json = await quarry(['parse', xlsx, '--json']);
    expect(json.code).toBe(0);
    const document = JSON.parse(json.stdout);
    expect(document.markdown).toContain('| 1 | 2 |');
    expect(document.metadata).toMatchObject({ numSheets: 1, sourceURL: 'sheet.xlsx' });
  });

  it('refuses an unknown type and a file over QUARRY_PARSE_MAX_BYTES in one line each', async () => {
    const legacy = join(folder, 'old.doc');
    await writeFile(legacy, new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0, 0]));
    const unknown = await quarry(['parse', legacy]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/^quarry: Unsupported file type for "old\.doc".*\n$/);
    const big = join(folder, 'big.txt');
    await writeFile(big, 'x'.repeat(5_000));
    const tooLarge = await quarry(['parse', big], { QUARRY_PARSE_MAX_BYTES: '2048' });
    expect(tooLarge.code).not.toBe(0);
    expect(tooLarge.stderr).toMatch(/^quarry: .*big\.txt is 5000 bytes, over the parse limit of 2048 \(QUARRY_PARSE_MAX_BYTES\)\n$/);
  });
});
