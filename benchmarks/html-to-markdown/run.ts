/**
 * HTML -> markdown conversion speed and quality: Quarry's htmlToMarkdown against turndown +
 * turndown-plugin-gfm on the same pages, in one process, variant order alternated per round.
 *
 *   npx tsx benchmarks/html-to-markdown/run.ts [--rounds 7] [--dump <dir>]
 *
 * Pages: ../shared/bench-data/extraction-dev/{aeb,traf}/html/*.html.gz (read in place, relative to
 * the repository root) plus the converter fixtures in packages/core/test/fixtures/markdown.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { isTag, isText, type AnyNode, type Document, type Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
// @ts-expect-error turndown ships no types (and @types/turndown is not a dependency); typed below
import TurndownServiceUntyped from 'turndown';
// @ts-expect-error turndown-plugin-gfm ships no types
import { gfm } from 'turndown-plugin-gfm';
import { htmlToMarkdown } from '../../packages/core/src/markdown/index.js';

const repositoryRoot = resolve(import.meta.dirname, '../..');
const dataRoot = resolve(repositoryRoot, '../shared/bench-data/extraction-dev');
const fixtureRoot = join(repositoryRoot, 'packages/core/test/fixtures/markdown');

interface Page {
  corpus: 'aeb' | 'traf' | 'fixtures';
  name: string;
  html: string;
  baseUrl: string;
  document: Document;
}

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

/** Decodes page bytes with the charset its meta tag declares (utf-8 when none or unknown). */
function decodePage(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 4096));
  const charset = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function loadPages(): Page[] {
  const pages: Page[] = [];
  const trafUrls = new Map<string, string>();
  const trafIndex = join(dataRoot, 'traf/evaldata.json');
  if (existsSync(trafIndex)) {
    const entries = JSON.parse(readFileSync(trafIndex, 'utf8')) as Record<string, { file: string }>;
    for (const [url, entry] of Object.entries(entries)) trafUrls.set(entry.file, url);
  }
  for (const corpus of ['aeb', 'traf'] as const) {
    const folder = join(dataRoot, corpus, 'html');
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)
      .filter((name) => name.endsWith('.html.gz'))
      .sort()) {
      const html = decodePage(gunzipSync(readFileSync(join(folder, file))));
      const baseUrl = trafUrls.get(file) ?? `https://${corpus}.example/${file.replace('.html.gz', '')}/`;
      pages.push({ corpus, name: file, html, baseUrl, document: parseDocument(html, { decodeEntities: true }) });
    }
  }
  if (existsSync(fixtureRoot)) {
    for (const name of readdirSync(fixtureRoot).sort()) {
      const input = join(fixtureRoot, name, 'input.html');
      if (!existsSync(input)) continue;
      const html = readFileSync(input, 'utf8');
      const optionsFile = join(fixtureRoot, name, 'options.json');
      const options = existsSync(optionsFile) ? (JSON.parse(readFileSync(optionsFile, 'utf8')) as { baseUrl?: string }) : {};
      const baseUrl = options.baseUrl ?? 'https://fixtures.example/';
      pages.push({ corpus: 'fixtures', name, html, baseUrl, document: parseDocument(html, { decodeEntities: true }) });
    }
  }
  return pages;
}

/** The part of turndown's API this benchmark uses. */
interface TurndownService {
  use(plugin: unknown): TurndownService;
  remove(filter: string[]): TurndownService;
  turndown(html: string): string;
}
const TurndownService = TurndownServiceUntyped as new (options: Record<string, string>) => TurndownService;

/** turndown configured as users do for GFM: ATX headings, fenced code, the gfm plugin, scripts removed. */
function createTurndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.use(gfm);
  service.remove(['script', 'style', 'noscript', 'template']);
  return service;
}

type Variant = 'quarry' | 'quarryParse' | 'turndown';
const variants: Variant[] = ['quarry', 'quarryParse', 'turndown'];
const labels: Record<Variant, string> = {
  quarry: 'Quarry htmlToMarkdown (parsed tree)',
  quarryParse: 'Quarry parse + convert',
  turndown: 'turndown + gfm (own parse)',
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Text before and after each `<br>` inside a `<pre>`: if the output has them on one line, the lines were glued. */
function preBreakPairs(document: Document): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const visit = (node: AnyNode, inPre: boolean, sink: string[]): void => {
    if (isText(node)) {
      if (inPre) sink.push(node.data);
    } else if (isTag(node)) {
      const element = node as Element;
      if (element.name === 'br' && inPre) sink.push('\u0000');
      const isPre = element.name === 'pre';
      const ownSink = isPre && !inPre ? [] : sink;
      for (const child of element.children) visit(child, inPre || isPre, ownSink);
      if (isPre && !inPre) {
        const parts = ownSink.join('').split('\u0000');
        for (let index = 0; index + 1 < parts.length; index++) {
          const before = parts[index]!.split('\n').pop()!.trim().slice(-12);
          const after = parts[index + 1]!.split('\n')[0]!.trim().slice(0, 12);
          if (before !== '' && after !== '') pairs.push([before, after]);
        }
      }
    } else if ('children' in node) {
      for (const child of (node as Document).children) visit(child, inPre, sink);
    }
  };
  visit(document, false, []);
  return pairs;
}

interface Quality {
  tables: number;
  fencedWithLanguage: number;
  emptyLinks: number;
  gluedPreLines: number;
  characters: number;
}

function quality(markdown: string, pairs: Array<[string, string]>): Quality {
  const lines = markdown.split('\n');
  let tables = 0;
  let fencedWithLanguage = 0;
  let isInFence = false;
  for (const line of lines) {
    const trimmed = line.replace(/^(?:>\s?|\s)*/, '');
    if (/^```+/.test(trimmed)) {
      if (!isInFence && /^```+\s*[\w#+.-]+/.test(trimmed)) fencedWithLanguage++;
      isInFence = !isInFence;
    } else if (!isInFence && /^\|(?:\s*:?-{3,}:?\s*\|)+\s*$/.test(trimmed)) {
      tables++;
    }
  }
  const emptyLinks = (markdown.match(/(?:^|[^!])\[\]\(/gm) ?? []).length;
  const gluedPreLines = pairs.filter(([before, after]) =>
    lines.some((line) => line.includes(before) && line.indexOf(after, line.indexOf(before) + before.length) !== -1),
  ).length;
  return { tables, fencedWithLanguage, emptyLinks, gluedPreLines, characters: markdown.length };
}

function main(): void {
  const rounds = Number(argument('--rounds') ?? 7);
  const dumpDirectory = argument('--dump');
  const pages = loadPages();
  const turndown = createTurndown();
  const run: Record<Variant, (page: Page) => string> = {
    quarry: (page) => htmlToMarkdown(page.document, { baseUrl: page.baseUrl }),
    quarryParse: (page) => htmlToMarkdown(parseDocument(page.html, { decodeEntities: true }), { baseUrl: page.baseUrl }),
    turndown: (page) => turndown.turndown(page.html),
  };

  // Warm up every variant (JIT) and keep the outputs for the quality counters.
  const outputs: Record<Variant, string[]> = { quarry: [], quarryParse: [], turndown: [] };
  for (const variant of variants) for (const page of pages) outputs[variant].push(run[variant](page));

  const timings: Record<Variant, number[][]> = { quarry: [], quarryParse: [], turndown: [] };
  for (const variant of variants) timings[variant] = pages.map(() => []);
  const roundTotals: Record<Variant, number[]> = { quarry: [], quarryParse: [], turndown: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      let total = 0;
      for (const [index, page] of pages.entries()) {
        const start = performance.now();
        run[variant](page);
        const elapsed = performance.now() - start;
        timings[variant][index]!.push(elapsed);
        total += elapsed;
      }
      roundTotals[variant].push(total);
    }
  }

  const corpora = ['aeb', 'traf', 'fixtures', 'all'] as const;
  const selection = (corpus: (typeof corpora)[number]) =>
    pages.map((page, index) => ({ page, index })).filter(({ page }) => corpus === 'all' || page.corpus === corpus);
  const commit = (() => {
    try {
      return execSync('git rev-parse --short HEAD', { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      return 'uncommitted';
    }
  })();
  console.log(
    `# html-to-markdown — ${pages.length} pages, ${rounds} rounds, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), node ${process.version}, commit ${commit}\n`,
  );
  console.log('Median ms per page (median over rounds per page, then mean over pages); ratio = turndown / variant\n');
  console.log('| corpus | pages | KB/page | Quarry convert | Quarry parse+convert | turndown+gfm | ratio convert | ratio parse+convert |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const corpus of corpora) {
    const selected = selection(corpus);
    if (selected.length === 0) continue;
    const perPage = (variant: Variant) => selected.reduce((sum, { index }) => sum + median(timings[variant][index]!), 0) / selected.length;
    const kilobytes = selected.reduce((sum, { page }) => sum + page.html.length, 0) / selected.length / 1024;
    const [convert, parseConvert, peer] = [perPage('quarry'), perPage('quarryParse'), perPage('turndown')];
    console.log(
      `| ${corpus} | ${selected.length} | ${kilobytes.toFixed(1)} | ${convert.toFixed(3)} | ${parseConvert.toFixed(3)} | ${peer.toFixed(3)} | ${(peer / convert).toFixed(1)}x | ${(peer / parseConvert).toFixed(1)}x |`,
    );
  }
  console.log('\nRaw rounds (total ms over all pages):');
  for (const variant of variants) console.log(`- ${labels[variant]}: ${roundTotals[variant].map((total) => total.toFixed(0)).join(', ')}`);

  const totals = (variant: 'quarry' | 'turndown') => {
    const sum: Quality = { tables: 0, fencedWithLanguage: 0, emptyLinks: 0, gluedPreLines: 0, characters: 0 };
    for (const [index, page] of pages.entries()) {
      const counted = quality(outputs[variant][index]!, preBreakPairs(page.document));
      for (const key of Object.keys(sum) as Array<keyof Quality>) sum[key] += counted[key];
    }
    return sum;
  };
  const quarryQuality = totals('quarry');
  const peerQuality = totals('turndown');
  const pairs = pages.reduce((sum, page) => sum + preBreakPairs(page.document).length, 0);
  console.log('\nQuality counters on the same pages (sums):\n');
  console.log('| counter | Quarry | turndown+gfm |');
  console.log('| --- | --- | --- |');
  console.log(`| GFM tables emitted | ${quarryQuality.tables} | ${peerQuality.tables} |`);
  console.log(`| fenced code blocks with a language | ${quarryQuality.fencedWithLanguage} | ${peerQuality.fencedWithLanguage} |`);
  console.log(`| empty links \`[](\` | ${quarryQuality.emptyLinks} | ${peerQuality.emptyLinks} |`);
  console.log(`| lines glued from pre>br (of ${pairs}) | ${quarryQuality.gluedPreLines} | ${peerQuality.gluedPreLines} |`);
  console.log(`| markdown characters | ${quarryQuality.characters} | ${peerQuality.characters} |`);

  if (dumpDirectory !== undefined) {
    mkdirSync(dumpDirectory, { recursive: true });
    for (const [index, page] of pages.entries()) {
      writeFileSync(join(dumpDirectory, `${page.corpus}-${page.name}.quarry.md`), outputs.quarry[index]!);
      writeFileSync(join(dumpDirectory, `${page.corpus}-${page.name}.turndown.md`), outputs.turndown[index]!);
    }
    console.log(`\nOutputs written to ${dumpDirectory}`);
  }
}

main();
