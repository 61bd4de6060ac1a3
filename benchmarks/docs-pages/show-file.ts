/**
 * One HTML file through Quarry (onlyMainContent + markdown), at the URL the docs-pages scores use:
 * to read what a real generator page keeps (`--generators`, `--pages-detail <generator>`).
 *
 *   npx tsx benchmarks/docs-pages/show-file.ts /usr/share/doc/rust-doc/html/std/ops/trait.BitXor.html [--opaque-names]
 */
import { readFileSync } from 'node:fs';
import { loadQuarryMarkdown, quarryExtractor } from '../main-content/extractors.js';
import { opaqueExtractors } from './opaque.js';

const [file] = process.argv.slice(2).filter((arg) => arg !== '--opaque-names');
if (!file) throw new Error('usage: show-file.ts <file.html> [--opaque-names]');
const { toMarkdown } = await loadQuarryMarkdown();
const named = quarryExtractor(toMarkdown);
const extract = process.argv.includes('--opaque-names') ? opaqueExtractors([['quarry', named]], true)[0]![1] : named;
console.log(extract(readFileSync(file, 'utf8'), 'https://docs.example.com/guide/page').markdown);
