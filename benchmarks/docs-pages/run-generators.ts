/**
 * The generators part of the docs-pages benchmark (`--generators N`): real mdBook, rustdoc, Javadoc
 * and MkDocs pages (`generator-corpus.ts`) through both extractors, each scored against the
 * generator's own content element (`generator-truth.ts`) on the template corpus' seven features
 * (`score.ts`: headings with their level, list items, table cells, code with its language, links,
 * emphasis as recall; text as the aeb shingle F1, so chrome that leaks costs precision).
 * Printed per generator, tuning half only unless `--generators-heldout` (read once, at the end).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Extractor } from '../main-content/extractors.js';
import { shingleCounts } from '../main-content/metrics.js';
import { fresh2GeneratorSamples, freshGeneratorSamples, generatorSamples } from './generator-corpus.js';
import { generatorTruthHtml } from './generator-truth.js';
import { newGeneratorSamples } from './generator-corpus-new.js';
import { newGeneratorTruthHtml } from './generator-truth-new.js';
import { type Features, featureNames, featuresOfHtml, featuresOfMarkdown, multisetRecall } from './score.js';
import { scoresOf, type Tally, tallyIn } from './tally.js';

/**
 * Code without its blank first lines and trailing spaces, both sides: Javadoc writes `<pre> \n`
 * (a space, then the code on the next line), which a reader does not see and a markdown fence
 * cannot hold; Doxygen writes a blank line as `<div class="line"> </div>`, whose space a reader does
 * not see either (Quarry's fences cut trailing spaces from every line, `cleanCodeText`). No-break spaces are read as spaces, both sides: gtk-doc writes a prototype's
 * `GSequence&nbsp;*`, which a reader sees as a space and Quarry's fences write as one
 * (`cleanCodeText`). Indentation and the language are kept.
 */
function trimmedCode(features: Features): Features {
  const code = new Map<string, number>();
  for (const [key, count] of features.code) {
    const [language, text] = key.split('\u0000') as [string, string];
    const trimmed = `${language}\u0000${(text ?? '')
      .replace(/\u00a0/g, ' ')
      .replace(/^(?:[ \t]*\n)+/, '')
      .replace(/[ \t]+$/gm, '')
      .trimEnd()}`;
    code.set(trimmed, (code.get(trimmed) ?? 0) + count);
  }
  return { ...features, code };
}

const pageUrl = 'https://docs.example.com/guide/page';
const failures: string[] = [];

/**
 * An extractor's markdown, or nothing when it throws: turndown-plugin-gfm (readability's converter)
 * throws on some Doxygen and gtk-doc tables (`isHeadingRow` reads a missing row). The page then
 * scores 0 for that extractor, and the failure is listed under the table.
 */
function markdownOrNothing(name: string, extract: Extractor, html: string, path: string): string {
  try {
    return extract(html, pageUrl).markdown;
  } catch (error) {
    failures.push(`${name} threw on ${path}: ${(error as Error).message.split('\n')[0]}`);
    return '';
  }
}
const fixed = (value: number): string => value.toFixed(3);

/**
 * `perGenerator`: at most this many pages of each generator's sample; `heldOut`: score the held-out
 * half too; `detail`: a generator whose tuning pages' losses are listed (Quarry only); `fresh`:
 * score only the fresh held-out set of 13g's generators (task 13i, `freshGeneratorSamples`), read once;
 * `'fresh2'`: only task 13j's second fresh set (`fresh2GeneratorSamples`), read once.
 */
export function runGenerators(
  extractors: [string, Extractor][],
  perGenerator: number,
  heldOut: boolean,
  detail?: string,
  fresh: false | 'fresh' | 'fresh2' = false,
  isNew = false,
  templated?: (root: string, path: string) => Extractor,
): void {
  const samples = isNew ? newGeneratorSamples() : fresh === 'fresh2' ? fresh2GeneratorSamples() : fresh ? freshGeneratorSamples() : generatorSamples();
  const truthOf = (name: string, html: string): string =>
    isNew ? newGeneratorTruthHtml(name as 'gidocgen', html) : generatorTruthHtml(name as 'mdbook', html);
  if (fresh) heldOut = true;
  if (samples.length === 0) {
    console.log('\ngenerators: none found (apt-get install -y rust-doc openjdk-17-doc mkdocs-doc libeigen3-doc libsdl2-doc libglib2.0-doc)');
    return;
  }
  const tallies = new Map<string, Tally>();
  const tally = (key: string): Tally => tallyIn(tallies, key);
  const details: string[] = [];
  let count = 0;
  for (const { site, root, pages } of samples) {
    const chosen = pages.slice(0, perGenerator).filter((page) => heldOut || !page.heldOut);
    chosen.forEach((page, index) => {
      const html = readFileSync(join(root, page.path), 'utf8');
      const truth = trimmedCode(featuresOfHtml(truthOf(site.name, html)));
      count += 1;
      const all: [string, Extractor][] = templated ? [...extractors, ['quarry+site', templated(root, page.path)]] : extractors;
      const order = index % 2 === 0 ? all : [...all].reverse();
      for (const [extractorName, extract] of order) {
        // The page's URL is the score's base URL, so both sides resolve relative links alike.
        const output = trimmedCode(featuresOfMarkdown(markdownOrNothing(extractorName, extract, html, page.path)));
        const part = fresh || (page.heldOut ? 'heldout' : 'tuning');
        const text = shingleCounts(truth.text, output.text);
        for (const key of [`${extractorName}|${site.name}|${part}`, `${extractorName}|all|${part}`]) {
          for (const name of featureNames) {
            const counts = multisetRecall(truth[name], output[name]);
            tally(key).features[name].expected += counts.expected;
            tally(key).features[name].found += counts.found;
          }
          tally(key).text.push(text);
        }
        if (detail === site.name && !page.heldOut && extractorName === 'quarry') {
          const lost = featureNames.flatMap((name) =>
            [...truth[name]]
              .filter(([key, expected]) => (output[name].get(key) ?? 0) < expected)
              .map(([key]) => `  ${name}: ${key.slice(0, 160).replace(/\n/g, '\\n')}`),
          );
          details.push(`${page.path} (${page.kind}): text tp ${text.tp.toFixed(2)} fp ${text.fp.toFixed(2)} fn ${text.fn.toFixed(2)}\n${lost.join('\n')}`);
        }
      }
    });
  }
  console.log(
    `\nreal generator pages (${isNew ? 'task 13n: gi-docgen, Apache httpd manual, SQLite' : 'mdBook, rustdoc, Javadoc, MkDocs, Doxygen, gtk-doc'}), ${count} pages, against each generator's own content element:`,
  );
  console.log('feature recall against the content element less its widgets (code with its language); text = aeb shingle F1; overall = mean of the seven\n');
  const columns = [...featureNames, 'text', 'overall'] as const;
  console.log(['generator'.padEnd(22), 'extractor'.padEnd(12), ...columns.map((column) => column.padStart(9))].join(''));
  const parts = fresh ? [fresh] : heldOut ? ['tuning', 'heldout'] : ['tuning'];
  for (const part of parts) {
    for (const name of [...samples.map(({ site }) => site.name), 'all']) {
      for (const extractorName of [...extractors.map(([extractorName]) => extractorName), ...(templated ? ['quarry+site'] : [])]) {
        const key = `${extractorName}|${name}|${part}`;
        if (!tallies.has(key)) continue;
        const scores = scoresOf(tally(key));
        console.log([`${name} (${part})`.padEnd(22), extractorName.padEnd(12), ...columns.map((column) => fixed(scores[column]).padStart(9))].join(''));
      }
    }
  }
  if (failures.length > 0) console.log(`\n${failures.length} pages scored as empty because the extractor threw:\n${failures.join('\n')}`);
  if (details.length > 0) console.log(`\npages of ${detail} where Quarry lost structure:\n${details.join('\n')}`);
}
