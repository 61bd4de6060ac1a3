/**
 * The site-template mode of the docs-pages benchmark (`--site-template`, issue 13: "repeated template
 * blocks across pages of a site when a crawl has them"). A crawl learns its template from its start
 * page only; here each page's start page is the nearest `index.html` above it (its book, module,
 * package tree or manual), never the page itself. The page is then extracted twice, without and
 * with that template applied to the chosen content (`applySiteTemplate`), and both are scored.
 * An index page itself is scored as plain Quarry (a crawl never applies the template to its start URL).
 * `SITE_TEMPLATE_BEFORE=1` applies the template to the whole page before the extraction instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AnyNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { extractMainContent } from '../../packages/core/src/extract/index.js';
import { applySiteTemplate, blockFingerprints, type SiteTemplate, siteTemplateOf, type TemplateRemoval } from './site-template.js';
import { type Extractor, quarryExtractor } from '../main-content/extractors.js';

type ToMarkdown = (nodes: AnyNode[], baseUrl: string) => string;

/** How often the template changed a page, and how many characters it took. */
export const siteTemplateStats = { pages: 0, applied: 0, removedChars: 0, startPages: 0, fallbacks: 0, capped: 0 };

const textOf = (node: AnyNode): string => (node.type === 'text' ? node.data : 'children' in node ? (node.children as AnyNode[]).map(textOf).join('') : '');

/** Counts a page's removal; with `SITE_TEMPLATE_LOG=1`, lists what was removed (or capped) and where. */
function count(removal: TemplateRemoval, where: string): void {
  if (removal.isCapped) siteTemplateStats.capped += 1;
  if (removal.removed.length > 0) {
    siteTemplateStats.applied += 1;
    siteTemplateStats.removedChars += removal.chars;
  }
  if (!process.env.SITE_TEMPLATE_LOG || removal.chars === 0) return;
  console.log(`${removal.isCapped ? 'capped' : 'removed'} ${removal.chars} characters from ${where}`);
  for (const element of removal.removed) console.log(`   - ${element.name} ${JSON.stringify(textOf(element).replace(/\s+/g, ' ').slice(0, 150))}`);
}

/** The nearest `index.html` above `path` (relative to `root`), not `path` itself; undefined at the top. */
export function startPageOf(root: string, path: string): string | undefined {
  let folder = dirname(path);
  for (;;) {
    const candidate = folder === '.' ? 'index.html' : join(folder, 'index.html');
    if (candidate !== path && existsSync(join(root, candidate))) return candidate;
    if (folder === '.' || folder === '/' || folder === '') return undefined;
    folder = dirname(folder);
  }
}

/** An extractor factory: for a page at `root`/`path`, Quarry with its site's template applied. */
export function siteTemplateExtractors(toMarkdown: ToMarkdown): (root: string, path: string) => Extractor {
  const templates = new Map<string, SiteTemplate>();
  const plain = quarryExtractor(toMarkdown);
  return (root, path) => {
    siteTemplateStats.pages += 1;
    const start = startPageOf(root, path);
    if (!start) {
      siteTemplateStats.startPages += 1;
      return plain;
    }
    const key = join(root, start);
    let template = templates.get(key);
    if (!template) {
      const document = parseDocument(readFileSync(key, 'utf8'));
      const blocks = blockFingerprints(document);
      template = siteTemplateOf(blocks, extractMainContent(document, {}).document);
      templates.set(key, template);
      if (process.env.SITE_TEMPLATE_LOG) console.log(`template of ${key}: ${blocks.length} blocks, ${template.fingerprints.length} outside its content`);
    }
    const learnt = template;
    return (html, url) => {
      const document = parseDocument(html);
      if (process.env.SITE_TEMPLATE_BEFORE) count(applySiteTemplate(document, learnt), `${path} (start ${start}), before extraction`);
      const result = extractMainContent(document, { url });
      if (result.isFallback) siteTemplateStats.fallbacks += 1;
      if (!process.env.SITE_TEMPLATE_BEFORE)
        count(applySiteTemplate(result.document, learnt), `${path} (start ${start})${result.isFallback ? ', a whole-page fallback' : ''}`);
      return { markdown: toMarkdown(result.document.children, url), ms: 0, extractMs: 0, isFallback: result.isFallback };
    };
  };
}

/**
 * For the template corpus (`run.ts --site-template`): Quarry with the template learnt from `startHtml`,
 * another page dressed in the same generator's chrome (the site's start page).
 */
export function siteTemplateExtractorFrom(toMarkdown: ToMarkdown, startHtml: string): Extractor {
  const document = parseDocument(startHtml);
  const blocks = blockFingerprints(document);
  const template = siteTemplateOf(blocks, extractMainContent(document, {}).document);
  return (html, url) => {
    const page = parseDocument(html);
    const result = extractMainContent(page, { url });
    siteTemplateStats.pages += 1;
    count(applySiteTemplate(result.document, template), url);
    return { markdown: toMarkdown(result.document.children, url), ms: 0, extractMs: 0, isFallback: result.isFallback };
  };
}
