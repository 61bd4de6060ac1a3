/**
 * Does the product give what the benchmark scores? The issue measures unseen pages through
 * `POST /v1/scrape` with the defaults; `run.ts` calls the extractor and the converter directly on a
 * string it decoded itself. This script serves every page's stored bytes, undecoded, from a local
 * HTTP server (`content-type: text/html`, no charset, as a plain static server answers), scrapes
 * each through Quarry's reference server (the same composition as `quarry serve`, Fastify's
 * inject), and scores that markdown beside `run.ts`'s pipeline on the same page, in the same run.
 *
 *   npx tsx benchmarks/main-content/via-server.ts [--corpus aeb|traf] [--folds 0,1,2] [--list]
 *
 * `--list` prints each page whose plain text differs, with the first line that differs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { corpusRoot, loadAeb, loadTraf } from './corpus.js';
import { loadQuarryMarkdown, quarryExtractor } from './extractors.js';
import { foldOf, parseFolds } from './folds.js';
import { markdownToText } from './markdown-to-text.js';
import { aebScores, type ShingleCounts, type SnippetCounts, shingleCounts, snippetCounts, trafScores } from './metrics.js';
import { startScrapeServer } from './scrape-server.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const corpora = flag('--corpus') ? [flag('--corpus')!] : ['aeb', 'traf'];
const onlyFolds = parseFolds(flag('--folds'));
const inFolds = (url: string): boolean => !onlyFolds || onlyFolds.includes(foldOf(url));
const listDifferences = args.includes('--list');

/** The page's bytes as stored, gunzipped and not decoded: what a site would send. */
const storedBytes = (corpus: string, id: string): Buffer => gunzipSync(readFileSync(join(corpusRoot, corpus, 'html', `${id}.html.gz`)));

const server = await startScrapeServer();

const { toMarkdown } = await loadQuarryMarkdown();
const direct = quarryExtractor(toMarkdown);
const format = (value: number): string => value.toFixed(3);

interface Compared {
  id: string;
  url: string;
  directText: string;
  serverText: string;
}

async function compare(corpus: string, pages: Array<{ id: string; url: string; html: string }>): Promise<Compared[]> {
  const results: Compared[] = [];
  for (const page of pages) {
    const serverText = markdownToText(await server.scrape(`${corpus}-${page.id}`, storedBytes(corpus, page.id)));
    results.push({ id: page.id, url: page.url, directText: markdownToText(direct(page.html, page.url).markdown), serverText });
  }
  return results;
}

function report(corpus: string, results: Compared[], line: (pipeline: string, texts: string[]) => string): void {
  console.log(
    line(
      'run.ts pipeline',
      results.map((result) => result.directText),
    ),
  );
  console.log(
    line(
      'POST /v1/scrape',
      results.map((result) => result.serverText),
    ),
  );
  const differing = results.filter((result) => result.directText !== result.serverText);
  console.log(`${corpus}: ${differing.length} of ${results.length} pages differ in plain text`);
  if (!listDifferences) return;
  for (const result of differing) {
    const directLines = result.directText.split('\n');
    const serverLines = result.serverText.split('\n');
    let index = 0;
    while (index < directLines.length && directLines[index] === serverLines[index]) index++;
    console.log(`  ${result.id.slice(0, 8)} ${result.url}`);
    console.log(`    run.ts: ${(directLines[index] ?? '(end)').slice(0, 140)}`);
    console.log(`    server: ${(serverLines[index] ?? '(end)').slice(0, 140)}`);
  }
}

try {
  if (corpora.includes('aeb')) {
    const pages = loadAeb().filter((page) => inFolds(page.url));
    const results = await compare('aeb', pages);
    report('aeb', results, (pipeline, texts) => {
      const counts: ShingleCounts[] = texts.map((text, index) => shingleCounts(pages[index]!.articleBody, text));
      const scores = aebScores(counts);
      return `aeb   ${pipeline.padEnd(16)} F1 ${format(scores.f1)}  P ${format(scores.precision)}  R ${format(scores.recall)}`;
    });
  }
  if (corpora.includes('traf')) {
    const pages = loadTraf().filter((page) => inFolds(page.url));
    const results = await compare('traf', pages);
    report('traf', results, (pipeline, texts) => {
      const counts: SnippetCounts[] = texts.map((text, index) => snippetCounts(text, pages[index]!.with, pages[index]!.without));
      const scores = trafScores(counts);
      return `traf  ${pipeline.padEnd(16)} F1 ${format(scores.f1)}  P ${format(scores.precision)}  R ${format(scores.recall)}`;
    });
  }
} finally {
  await server.close();
}
