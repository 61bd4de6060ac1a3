import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsBlocks } from './support/readme-blocks.js';

/**
 * Every ```ts block of the README type-checks against the built packages (as a user's project
 * would import them), each as its own ES module (top-level await allowed).
 */
const root = new URL('../../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

function typeErrors(blocks: Array<{ line: number; code: string }>): string[] {
  // Under node_modules of the repository, so imports resolve as in a project that installed the packages.
  const folder = fileURLToPath(new URL(`node_modules/.cache/quarry-readme-${process.pid}/`, root));
  mkdirSync(folder, { recursive: true });
  try {
    const files = blocks.map((block) => {
      const file = `${folder}readme-line-${block.line}.mts`;
      writeFileSync(file, `${block.code}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ['node'],
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file
        ? `${diagnostic.file.fileName.slice(folder.length)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('README code', () => {
  it('has ts blocks, and every one type-checks', () => {
    const blocks = tsBlocks(readme);
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(typeErrors(blocks)).toEqual([]);
  }, 120_000);

  it('catches a block that does not type-check (findChromium() may be undefined)', () => {
    const broken = "import { findChromium, PlaywrightFetcher } from '@quarry/adapters';\nnew PlaywrightFetcher({ executablePath: findChromium() });";
    expect(typeErrors([{ line: 1, code: broken }]).join('\n')).toMatch(/undefined/);
  }, 120_000);
});
