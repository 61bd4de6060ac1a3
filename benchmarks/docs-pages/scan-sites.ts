/**
 * A first look at sites nobody scored: for each folder of HTML pages on disk (an installed Debian
 * documentation package, say), a fixed sample of pages through Quarry and readability, and the pages
 * where the two keep very different amounts of text. No truth is read: a row is a place to look
 * with `show-file.ts`, not a verdict (readability keeps nothing on a landing page; Quarry keeps an
 * index page whole on purpose). It found Go's `go_spec.html`, a page with no `body` element, kept
 * as one of its lists, and gi-docgen's class pages cut to their description.
 *
 *   npx tsx benchmarks/docs-pages/scan-sites.ts /usr/share/doc/libgtk-4-doc /usr/share/doc/sqlite3 [--pages 25]
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { loadQuarryMarkdown, quarryExtractor, readabilityExtractor } from '../main-content/extractors.js';
import { markdownToText } from '../main-content/markdown-to-text.js';
import { siteTemplateExtractors, siteTemplateStats } from './site-templates.js';

/** Quarry keeping less than this share of readability's text flags a page... */
const lowShare = 0.6;
/** ...and more than this share, with at least `highMinimumExtra` more characters. */
const highShare = 1.8;
const highMinimumExtra = 500;
/** Pages smaller than this (bytes) are redirects and stubs, not pages. */
const minimumBytes = 3000;

const args = process.argv.slice(2);
const pagesIndex = args.indexOf('--pages');
const pageCount = pagesIndex >= 0 ? Number(args[pagesIndex + 1]) : 25;
const folders = args.filter((arg, index) => !arg.startsWith('--') && index !== pagesIndex + 1);
/** `--site-template`: each page also with the template of its start page (`site-templates.ts`), and its kept text. */
const withSiteTemplate = args.includes('--site-template');
if (folders.length === 0) throw new Error('usage: scan-sites.ts <folder>... [--pages N]');

function htmlFiles(folder: string, found: string[] = []): string[] {
  for (const name of readdirSync(folder).sort()) {
    if (name.startsWith('_') || name.startsWith('.')) continue;
    const path = join(folder, name);
    const stat = statSync(path);
    if (stat.isDirectory()) htmlFiles(path, found);
    else if (name.endsWith('.html') && stat.size >= minimumBytes) found.push(path);
  }
  return found;
}

/** A fixed sample: the files in the order of a hash of their path. */
const hashOf = (text: string): string => createHash('sha1').update(text).digest('hex');
/**
 * Raw HTML left in the markdown (turndown keeps a table it cannot write as GFM, a gtk-doc or
 * DocBook layout table, as HTML) is counted by its text, not its tags and attributes: as text it
 * made readability's output of glib's reference pages twice Quarry's.
 */
const withoutTags = (text: string): string => text.replace(/<\/?[a-zA-Z][^>]*>/g, ' ').replace(/&nbsp;/g, ' ');
const textLength = (markdown: string): number => withoutTags(markdownToText(markdown)).replace(/\s+/g, ' ').trim().length;

/** Readability's text length; 0 when the peer fails (turndown's table plugin throws on some gi-docgen pages). */
function peerLength(html: string, url: string): number {
  try {
    return textLength(readabilityExtractor(html, url).markdown);
  } catch {
    return 0;
  }
}

const { toMarkdown } = await loadQuarryMarkdown();
const quarry = quarryExtractor(toMarkdown);
const templated = withSiteTemplate ? siteTemplateExtractors(toMarkdown) : undefined;
for (const folder of folders) {
  const sample = htmlFiles(folder)
    .map((path) => ({ path, key: hashOf(path) }))
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .slice(0, pageCount);
  let quarryTotal = 0;
  let readabilityTotal = 0;
  let templatedTotal = 0;
  const changed: string[] = [];
  const flagged: string[] = [];
  for (const { path } of sample) {
    const html = readFileSync(path, 'utf8');
    const url = `http://127.0.0.1/${path}`;
    const kept = textLength(quarry(html, url).markdown);
    const peer = peerLength(html, url);
    quarryTotal += kept;
    if (templated) {
      const keptWithTemplate = textLength(templated(folder, relative(folder, path))(html, url).markdown);
      templatedTotal += keptWithTemplate;
      if (keptWithTemplate !== kept) changed.push(`  template ${kept} -> ${keptWithTemplate} (readability ${peerLength(html, url)})  ${path}`);
    }
    readabilityTotal += peer;
    const share = kept / Math.max(peer, 1);
    if (share < lowShare) flagged.push(`  less ${share.toFixed(2)}  quarry ${kept}  readability ${peer}  ${path}`);
    else if (share > highShare && kept - peer >= highMinimumExtra) flagged.push(`  more ${share.toFixed(2)}  quarry ${kept}  readability ${peer}  ${path}`);
  }
  const share = readabilityTotal > 0 ? (quarryTotal / readabilityTotal).toFixed(2) : 'n/a';
  console.log(`${folder}: ${sample.length} pages, Quarry's text / readability's ${share}, ${flagged.length} flagged`);
  for (const line of flagged) console.log(line);
  if (templated) {
    console.log(
      `  with the site template: Quarry's text / readability's ${(templatedTotal / Math.max(readabilityTotal, 1)).toFixed(2)}, ${changed.length} pages changed`,
    );
    for (const line of changed) console.log(line);
  }
}
if (withSiteTemplate) console.log('site template:', JSON.stringify(siteTemplateStats));
