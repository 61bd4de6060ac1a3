/**
 * CPU per stage of the transform on the largest pages of a site, beside cheerio.load + turndown on
 * the same HTML in the same process (issue 14, 14j): parse, metadata + hrefs + links, main content,
 * strip non-content + URLs, markdown. Loads packages/core's source through tsx, so the stages are
 * the ones `transformHtml` runs (`onlyMainContent`, markdown and links wanted), one at a time.
 *
 *   npx tsx benchmarks/crawl-real-site/transform-stages.ts --dir /usr/share/doc/python-tornado-doc/html [--largest 8] [--repeat 20]
 *
 * Prints the first (cold) pass and the median of the warm passes per stage, in ms per page.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import * as cheerio from 'cheerio';
// @ts-expect-error turndown ships no types
import TurndownService from 'turndown';
// @ts-expect-error turndown-plugin-gfm ships no types
import { gfm } from 'turndown-plugin-gfm';
import { extractLinks } from '../../packages/core/src/crawl/link-extract.js';
import { extractMainContentOf } from '../../packages/core/src/extract/main-content.js';
import { baseUrlOf, removeNonContent, resolveUrls } from '../../packages/core/src/html/clean-html.js';
import { extractMetadata } from '../../packages/core/src/html/metadata.js';
import { pageHrefs } from '../../packages/core/src/html/page-hrefs.js';
import { parseHtml } from '../../packages/core/src/html/parse-html.js';
import { htmlToMarkdown } from '../../packages/core/src/markdown/index.js';
// @ts-expect-error site-pages.mjs is plain JavaScript, shared with the .mjs tools
import { htmlFiles } from './site-pages.mjs';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/usr/share/doc/python-tornado-doc/html' },
    largest: { type: 'string', default: '8' },
    repeat: { type: 'string', default: '20' },
  },
});
const dir = values.dir!;
const pages = (htmlFiles(dir) as string[])
  .map((path) => ({ url: `http://127.0.0.1/${relative(dir, path)}`, html: readFileSync(path, 'utf8') }))
  .sort((a, b) => b.html.length - a.html.length)
  .slice(0, Number(values.largest));

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.use(gfm);
turndown.remove(['script', 'style', 'noscript', 'template']);

const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const stages = ['parse', 'links', 'mainContent', 'clean', 'markdown', 'quarry', 'cheerio', 'turndown', 'crawlee'] as const;
type Stage = (typeof stages)[number];

function onePass(page: { url: string; html: string }): Record<Stage, number> {
  const times = {} as Record<Stage, number>;
  let at = cpu();
  const lap = (stage: Stage) => {
    const now = cpu();
    times[stage] = now - at;
    at = now;
  };
  const document = parseHtml(page.html);
  lap('parse');
  extractMetadata(document, page.url);
  const hrefs = pageHrefs(document);
  const baseUrl = baseUrlOf(document, page.url, hrefs);
  extractLinks(document, page.url, hrefs);
  lap('links');
  // As transformHtml: from 100,000 characters main content works on the parsed page itself.
  const main = extractMainContentOf(page.html.length >= 100_000 ? { document, reload: () => parseHtml(page.html) } : { document });
  lap('mainContent');
  removeNonContent(main.document);
  resolveUrls(main.document, baseUrl);
  lap('clean');
  htmlToMarkdown(main.document, { baseUrl, removeBase64Images: true });
  lap('markdown');
  times.quarry = times.parse + times.links + times.mainContent + times.clean + times.markdown;
  cheerio.load(page.html);
  lap('cheerio');
  turndown.turndown(page.html);
  lap('turndown');
  times.crawlee = times.cheerio + times.turndown;
  return times;
}

const repeat = Number(values.repeat);
const rows: Record<string, Record<Stage, number[]>> = {};
for (let round = 0; round <= repeat; round++) {
  for (const page of pages) {
    const times = onePass(page);
    const row = (rows[page.url] ??= Object.fromEntries(stages.map((stage) => [stage, []])) as unknown as Record<Stage, number[]>);
    for (const stage of stages) row[stage].push(times[stage]);
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
console.log(`page (chars) | ${stages.join(' | ')}   [cold / warm median, CPU ms]`);
for (const page of pages) {
  const row = rows[page.url]!;
  const cells = stages.map((stage) => `${row[stage][0]!.toFixed(1)}/${median(row[stage].slice(1)).toFixed(1)}`);
  console.log(`${relative('http://127.0.0.1/', page.url).replace(/^.*127\.0\.0\.1\//, '')} (${page.html.length}) | ${cells.join(' | ')}`);
}
