/**
 * One source page through Quarry, bare or in a template: prints the markdown (to read what a page
 * loses next to inspect.ts's list).
 *
 *   npx tsx benchmarks/docs-pages/show.ts <path under node_modules, e.g. chalk/readme.md> [template|bare] [--opaque-names]
 */
import { loadQuarryMarkdown, quarryExtractor } from '../main-content/extractors.js';
import { loadSourcePages } from './corpus.js';
import { dress } from './dress.js';
import { opaqueExtractors } from './opaque.js';
import { moreTemplates } from './templates-more.js';
import { templates as firstTemplates } from './templates.js';

const [path, variant = 'bare'] = process.argv.slice(2).filter((arg) => arg !== '--opaque-names');
const page = loadSourcePages(1000).find((candidate) => candidate.path === path);
if (!page) throw new Error(`no page ${path}`);
const template = [...firstTemplates, ...moreTemplates].find((candidate) => candidate.name === variant);
const siblings = ['introduction', 'installation', 'getting-started', 'configuration', 'api-reference', 'examples', 'faq', 'changelog'];
const html = template ? dress(page.html, template, siblings).page : `<!doctype html><html><head><title>Doc</title></head><body>${page.html}</body></html>`;
const { toMarkdown } = await loadQuarryMarkdown();
const named = quarryExtractor(toMarkdown);
const extract = process.argv.includes('--opaque-names') ? opaqueExtractors([['quarry', named]], true)[0]![1] : named;
console.log(extract(html, 'https://docs.example.com/guide/page').markdown);
