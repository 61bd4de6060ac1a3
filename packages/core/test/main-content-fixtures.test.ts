/**
 * Main-content fixtures: each folder of fixtures/main-content holds input.html (a real page shape)
 * and expected.md, the markdown of what `extractMainContent` keeps. The whole output is compared.
 * Run with UPDATE_FIXTURES=1 to rewrite expected.md, then review the diff by eye.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { extractMainContent } from '../src/extract/index.js';
import { htmlToMarkdown } from '../src/markdown/index.js';

const fixtureRoot = fileURLToPath(new URL('./fixtures/main-content/', import.meta.url));
const isUpdating = process.env.UPDATE_FIXTURES === '1';
const cases = readdirSync(fixtureRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('extractMainContent fixtures', () => {
  for (const name of cases) {
    it(name, () => {
      const folder = join(fixtureRoot, name);
      const html = readFileSync(join(folder, 'input.html'), 'utf8');
      const baseUrl = 'https://docs.example.com/guide/page';
      const { document } = extractMainContent(parseDocument(html, { decodeEntities: true }), { url: baseUrl });
      const markdown = htmlToMarkdown(document.children, { baseUrl });
      const expectedPath = join(folder, 'expected.md');
      if (isUpdating) writeFileSync(expectedPath, markdown + '\n');
      expect(markdown + '\n').toBe(readFileSync(expectedPath, 'utf8'));
    });
  }
});
