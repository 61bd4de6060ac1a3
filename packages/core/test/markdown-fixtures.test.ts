/**
 * Conversion fixtures: each folder of fixtures/markdown holds input.html, expected.md and an
 * optional options.json (MarkdownOptions). The whole output is compared. Run with
 * UPDATE_FIXTURES=1 to rewrite expected.md, then review the diff by eye.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, type MarkdownOptions } from '../src/markdown/index.js';

const fixtureRoot = fileURLToPath(new URL('./fixtures/markdown/', import.meta.url));
const isUpdating = process.env.UPDATE_FIXTURES === '1';
const cases = readdirSync(fixtureRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('htmlToMarkdown fixtures', () => {
  it('has at least 25 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
  });

  for (const name of cases) {
    it(name, () => {
      const folder = join(fixtureRoot, name);
      const html = readFileSync(join(folder, 'input.html'), 'utf8');
      const optionsPath = join(folder, 'options.json');
      const options = existsSync(optionsPath) ? (JSON.parse(readFileSync(optionsPath, 'utf8')) as MarkdownOptions) : {};
      const markdown = htmlToMarkdown(html, options);
      const expectedPath = join(folder, 'expected.md');
      if (isUpdating) writeFileSync(expectedPath, markdown + '\n');
      expect(markdown + '\n').toBe(readFileSync(expectedPath, 'utf8'));

      // The same output from an already parsed tree (the engine's path).
      expect(htmlToMarkdown(parseDocument(html, { decodeEntities: true }), options)).toBe(markdown);
      // Layout invariants every output keeps.
      expect(markdown).not.toMatch(/[ \t]$/m);
      expect(markdown).not.toMatch(/\n\n\n/);
      expect(markdown).not.toMatch(/^\s|\s$/);
    });
  }
});
