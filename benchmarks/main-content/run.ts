/**
 * onlyMainContent on extraction-dev: Quarry (extractMainContent + Quarry markdown) beside
 * @mozilla/readability + turndown, on the same pages in the same run, scored as the corpus README
 * defines. Run from the repo root: `npx tsx benchmarks/main-content/run.ts`.
 *
 * Flags: `--corpus aeb|traf` (default both), `--dump <dir>` writes each page's markdown for both
 * extractors, `--pages` lists per-page scores (worst first) for Quarry, `--folds 0,1,2` runs only the
 * pages of those folds (the tuning folds; see folds.ts), `--opaque-names` replaces every class and
 * id name by a meaningless one before both pipelines (opaque-names.ts: a proxy for unseen sites).
 *
 * `--versus` lists the pages where readability scores better than Quarry, both extractors side by side:
 * traf pages by snippet counts (tp - fp - fn per page), aeb pages where readability's F1 or precision
 * is higher (per-page P and R of both).
 *
 * `--drop-title` scores Quarry's aeb output without its leading `# ` headline (the product keeps the
 * page's `h1`, aeb's ground truth leaves it out): an analysis of what that decision costs, not a score.
 *
 * Folds: pages are split by site (hostname) into five folds; each fold's F1 is printed for both
 * extractors with the mean and spread, so a change can be judged on sites it was not tuned on.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type BlockModel, filterEdgeBlocks, setBlockModel } from './block-classifier.js';
import { loadAeb, loadTraf } from './corpus.js';
import { foldCount, foldOf, parseFolds } from './folds.js';
import { type Extraction, type Extractor, loadQuarryMarkdown, quarryExtractor, readabilityExtractor } from './extractors.js';
import { markdownToText } from './markdown-to-text.js';
import { withOpaqueNames } from './opaque-names.js';
import { aebScores, type Scores, type ShingleCounts, type SnippetCounts, shingleCounts, snippetCounts, trafScores } from './metrics.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const corpora = flag('--corpus') ? [flag('--corpus')!] : ['aeb', 'traf'];
const dumpDir = flag('--dump');
const listPages = args.includes('--pages');
/** `--versus`: pages where readability beats Quarry (traf: snippet counts; aeb: page F1 or P), side by side. */
const listVersus = args.includes('--versus');
/** `--drop-title`: Quarry's leading `# ` headline left out of its aeb text before scoring (analysis only). */
const dropTitle = args.includes('--drop-title');
const scoredMarkdown = (name: string, markdown: string): string => (dropTitle && name === 'quarry' ? markdown.replace(/^# [^\n]*\n*/, '') : markdown);
const onlyFolds = parseFolds(flag('--folds'));
const inFolds = (url: string): boolean => !onlyFolds || onlyFolds.includes(foldOf(url));
/** Class and id names replaced by meaningless ones before both pipelines (opaque-names.ts). */
const isOpaque = args.includes('--opaque-names');
const pageHtml = (html: string): string => (isOpaque ? withOpaqueNames(html) : html);

/**
 * `--block-model <file|13d>`: task 13d's learned edge-block filter (block-classifier.ts) applied to
 * Quarry's content after `extractMainContent`, with a model written by `block-features.ts --final`
 * or the one block-classifier.ts carries (`13d`).
 */
const blockModelPath = flag('--block-model');
if (blockModelPath && blockModelPath !== '13d') setBlockModel(JSON.parse(readFileSync(blockModelPath, 'utf8')) as BlockModel);

const { name: converterName, toMarkdown } = await loadQuarryMarkdown();
const extractors: Record<string, Extractor> = {
  quarry: quarryExtractor(toMarkdown, blockModelPath ? filterEdgeBlocks : undefined),
  readability: readabilityExtractor,
};
const names = Object.keys(extractors);

interface PageRun {
  id: string;
  url: string;
  outputs: Record<string, Extraction>;
}

/** Runs every extractor on a page, alternating which goes first so warm caches favour neither. */
function runPage(id: string, url: string, html: string, index: number): PageRun {
  const order = index % 2 === 0 ? names : [...names].reverse();
  const outputs: Record<string, Extraction> = {};
  for (const name of order) outputs[name] = extractors[name]!(html, url);
  if (dumpDir) {
    for (const name of names) {
      const folder = join(dumpDir, name);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `${id.slice(0, 16)}.md`), `<!-- ${url} -->\n${outputs[name]!.markdown}`);
    }
  }
  return { id, url, outputs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Row {
  corpus: string;
  extractor: string;
  scores: Scores;
  meanMs: number;
  medianMs: number;
  medianExtractMs: number;
  fallbacks?: number;
}

const rows: Row[] = [];
const foldLines: string[] = [];

/** One line per extractor: F1 per fold, mean and spread (max - min). */
function foldRows<T>(corpus: string, name: string, urls: string[], counts: T[], score: (counts: T[]) => Scores): void {
  const folds = onlyFolds ?? Array.from({ length: foldCount }, (_, fold) => fold);
  const perFold = folds.map((fold) => score(counts.filter((_count, index) => foldOf(urls[index]!) === fold)).f1);
  const mean = perFold.reduce((sum, value) => sum + value, 0) / perFold.length;
  const spread = Math.max(...perFold) - Math.min(...perFold);
  foldLines.push(`${corpus.padEnd(7)} ${name.padEnd(12)} ${perFold.map(format).join('  ')}   mean ${format(mean)}  spread ${format(spread)}`);
}
const format = (value: number): string => value.toFixed(3);

function timingRow(corpus: string, name: string, runs: PageRun[], scores: Scores): Row {
  const times = runs.map((run) => run.outputs[name]!.ms);
  const fallbacks = runs.filter((run) => run.outputs[name]!.isFallback).length;
  return {
    corpus,
    extractor: name,
    scores,
    meanMs: times.reduce((sum, time) => sum + time, 0) / times.length,
    medianMs: median(times),
    medianExtractMs: median(runs.map((run) => run.outputs[name]!.extractMs)),
    ...(name === 'quarry' ? { fallbacks } : {}),
  };
}

if (corpora.includes('aeb')) {
  const pages = loadAeb().filter((page) => inFolds(page.url));
  const runs = pages.map((page, index) => runPage(page.id, page.url, pageHtml(page.html), index));
  const shinglesOf: Record<string, ShingleCounts[]> = {};
  for (const name of names) {
    const counts: ShingleCounts[] = runs.map((run, index) =>
      shingleCounts(pages[index]!.articleBody, markdownToText(scoredMarkdown(name, run.outputs[name]!.markdown))),
    );
    shinglesOf[name] = counts;
    rows.push(timingRow('aeb', name, runs, aebScores(counts)));
    foldRows(
      'aeb',
      name,
      runs.map((run) => run.url),
      counts,
      aebScores,
    );
    if (listPages && name === 'quarry') {
      const detail = counts.map((count, index) => ({
        id: runs[index]!.id.slice(0, 16),
        url: runs[index]!.url,
        p: count.tp + count.fp > 0 ? count.tp / (count.tp + count.fp) : 0,
        r: count.tp + count.fn > 0 ? count.tp / (count.tp + count.fn) : 0,
      }));
      detail.sort((a, b) => a.p + a.r - (b.p + b.r));
      for (const page of detail) console.log(`aeb ${page.id} P=${format(page.p)} R=${format(page.r)} ${page.url}`);
    }
  }
  if (listVersus) {
    const pageScores = (count: ShingleCounts): { p: number; r: number; f1: number } => {
      const p = count.tp + count.fp > 0 ? count.tp / (count.tp + count.fp) : 0;
      const r = count.tp + count.fn > 0 ? count.tp / (count.tp + count.fn) : 0;
      return { p, r, f1: p + r > 0 ? (2 * p * r) / (p + r) : 0 };
    };
    const show = (scores: { p: number; r: number; f1: number }): string => `F1=${format(scores.f1)} P=${format(scores.p)} R=${format(scores.r)}`;
    shinglesOf.quarry!.forEach((count, index) => {
      const quarry = pageScores(count);
      const readability = pageScores(shinglesOf.readability![index]!);
      // Ahead by more than rounding: a tie printed as equal figures is not listed.
      if (readability.f1 > quarry.f1 + 0.0005 || readability.p > quarry.p + 0.0005) {
        console.log(`versus aeb ${runs[index]!.id.slice(0, 8)} quarry ${show(quarry)} | readability ${show(readability)} ${runs[index]!.url}`);
      }
    });
  }
}

if (corpora.includes('traf')) {
  const pages = loadTraf().filter((page) => inFolds(page.url));
  const runs = pages.map((page, index) => runPage(page.id, page.url, pageHtml(page.html), index));
  const countsOf: Record<string, SnippetCounts[]> = {};
  for (const name of names) {
    const counts: SnippetCounts[] = runs.map((run, index) =>
      snippetCounts(markdownToText(run.outputs[name]!.markdown), pages[index]!.with, pages[index]!.without),
    );
    countsOf[name] = counts;
    rows.push(timingRow('traf', name, runs, trafScores(counts)));
    foldRows(
      'traf',
      name,
      runs.map((run) => run.url),
      counts,
      trafScores,
    );
    if (listPages && name === 'quarry') {
      counts.forEach((count, index) => {
        if (count.fp + count.fn > 0) {
          console.log(`traf ${runs[index]!.id} fp=${count.fp} fn=${count.fn} tp=${count.tp} ${runs[index]!.url}`);
        }
      });
    }
  }
  if (listVersus) {
    const net = (count: SnippetCounts): number => count.tp - count.fp - count.fn;
    const show = (count: SnippetCounts): string => `tp=${count.tp} fp=${count.fp} fn=${count.fn}`;
    countsOf.quarry!.forEach((quarry, index) => {
      const readability = countsOf.readability![index]!;
      if (net(readability) > net(quarry)) {
        console.log(`versus ${runs[index]!.id.slice(0, 8)} quarry ${show(quarry)} | readability ${show(readability)} ${runs[index]!.url}`);
      }
    });
  }
}

if (dropTitle) console.log("\nQuarry's aeb headline left out before scoring (--drop-title: an analysis, not the product's score)");
if (isOpaque) console.log('\nclass and id names replaced by meaningless ones (--opaque-names)');
console.log(`\nQuarry markdown: ${converterName}; peer: @mozilla/readability 0.6 (linkedom) + turndown 7 (GFM)`);
console.log('ms/page: whole pipeline (parse + extract + markdown), mean and median; extract: the extraction step alone, median\n');
console.log('corpus  extractor     F1     P      R      ms/page mean / median   extract   fallbacks');
for (const row of rows) {
  const { precision, recall, f1 } = row.scores;
  console.log(
    `${row.corpus.padEnd(7)} ${row.extractor.padEnd(12)} ${format(f1)}  ${format(precision)}  ${format(recall)}  ` +
      `${row.meanMs.toFixed(1).padStart(7)} / ${row.medianMs.toFixed(1).padStart(6)}   ${row.medianExtractMs.toFixed(1).padStart(7)}` +
      (row.fallbacks !== undefined ? `   ${String(row.fallbacks).padStart(9)}` : ''),
  );
}
console.log(`\nF1 by fold of sites (folds ${onlyFolds ? onlyFolds.join(',') : `0-${foldCount - 1}`}, by a hash of the hostname):`);
for (const line of foldLines) console.log(line);
