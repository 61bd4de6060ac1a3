/**
 * The real non-Sphinx part of the docs-pages benchmark: each site's pages (`real-truth.ts`) through
 * both extractors, scored as the template corpus is (`score.ts`: headings with their level as the
 * page writes it, list items, table cells, code, links, emphasis as recall; text as the aeb shingle
 * F1 with generated text excused); code is compared on its text (the pages' language classes are
 * the generator's, "language-js mjs"). Sites are printed one by one and as the tuning and held-out
 * parts.
 */
import { shingleCounts } from '../main-content/metrics.js';
import type { Extractor } from '../main-content/extractors.js';
import { realSites } from './real-corpus.js';
import { loadRealPages, type RealPage } from './real-truth.js';
import { codeKey } from './rst.js';
import { emptySphinxTally, hasOwnText, type SphinxTally, sphinxFeatures, sphinxOutputFeatures, sphinxScoresOf } from './run-sphinx.js';
import { type Features, featureNames, featuresOfHtml, featuresOfMarkdown, multisetRecall } from './score.js';
import { scoresOf, type Tally, tallyIn } from './tally.js';

/**
 * Code on its text alone, spaces folded: the pages' whitespace is the generator's (a copy button's
 * space, a verse block's indentation that the source writes with tabs).
 */
function codeAsText(features: Features): Features {
  const code = new Map<string, number>();
  for (const [key, count] of features.code) {
    const text = codeKey(key.split('\u0000')[1] ?? '');
    code.set(text, (code.get(text) ?? 0) + count);
  }
  return { ...features, code };
}

const fixed = (value: number): string => value.toFixed(3);
const pageUrl = 'https://docs.example.com/guide/page';

/**
 * `detail`: a tuning site whose pages' losses are listed (missing keys, Quarry only); a held-out
 * site's are never listed.
 */
export function runReal(extractors: [string, Extractor][], perSite: number, detail?: string, tuningOnly = false): void {
  const sites = realSites.filter((site) => !(tuningOnly && site.heldOut));
  const loaded = loadRealPages(perSite, sites);
  if (loaded.length === 0) {
    console.log(`\nreal non-Sphinx sites: none found (apt-get install -y ${realSites.map((site) => site.package).join(' ')})`);
    return;
  }
  const pages = loaded.filter((page) => !page.rst);
  const rstPages = loaded.filter((page) => page.rst);
  if (rstPages.length > 0) runRealRst(extractors, rstPages, detail);
  if (pages.length === 0) return;
  const tallies = new Map<string, Tally>();
  const tally = (key: string): Tally => tallyIn(tallies, key);
  const details: string[] = [];
  pages.forEach((page, index) => {
    const truth = codeAsText(featuresOfHtml(page.truthHtml));
    const order = index % 2 === 0 ? extractors : [...extractors].reverse();
    for (const [extractorName, extract] of order) {
      const output = codeAsText(featuresOfMarkdown(extract(page.html, pageUrl).markdown));
      const keys = [`${extractorName}|${page.site.name}`, `${extractorName}|${page.site.heldOut ? 'heldout' : 'tuning'}`];
      const text = shingleCounts(truth.text, output.text, page.generated);
      for (const key of keys) {
        for (const name of featureNames) {
          const counts = multisetRecall(truth[name], output[name]);
          tally(key).features[name].expected += counts.expected;
          tally(key).features[name].found += counts.found;
        }
        if (page.scoresText) tally(key).text.push(text);
      }
      if (detail === page.site.name && !page.site.heldOut && extractorName === 'quarry') {
        const lost = featureNames.flatMap((name) =>
          [...truth[name]]
            .filter(([key, count]) => (output[name].get(key) ?? 0) < count)
            .map(([key]) => `  ${name}: ${key.slice(0, 160).replace(/\n/g, '\\n')}`),
        );
        details.push(
          `${page.path}${page.scoresText ? '' : ' (text not scored)'}: text tp ${text.tp.toFixed(2)} fp ${text.fp.toFixed(2)} fn ${text.fn.toFixed(2)}\n${lost.join('\n')}`,
        );
      }
    }
  });
  const shown = sites.filter((site) => pages.some((page) => page.site === site));
  console.log(`\nreal non-Sphinx sites, ${pages.length} pages, against their sources (markdown, asciidoc):`);
  console.log('feature recall against the source rendered as the page shows it (code on its text); text = aeb shingle F1; overall = mean of the seven\n');
  const columns = [...featureNames, 'text', 'overall'] as const;
  console.log(['site'.padEnd(22), 'extractor'.padEnd(12), ...columns.map((column) => column.padStart(9))].join(''));
  const rows = [
    ...shown.map((site) => [site.name, `${site.name} (${site.heldOut ? (site.fresh ? 'fresh' : 'held out') : 'tuning'})`]),
    ['tuning', 'tuning sites'],
    ...(shown.some((site) => site.heldOut) ? [['heldout', 'held-out sites']] : []),
  ];
  for (const [key, label] of rows) {
    for (const [extractorName] of extractors) {
      const scores = scoresOf(tally(`${extractorName}|${key}`));
      console.log([label!.padEnd(22), extractorName.padEnd(12), ...columns.map((column) => fixed(scores[column]).padStart(9))].join(''));
    }
  }
  if (details.length > 0) console.log(`\npages of ${detail} where Quarry lost structure:\n${details.join('\n')}`);
}

/**
 * Every key and the text lower-cased, and `…` read as `...` (a site whose truth cannot state case
 * or `@dots{}`: Texinfo's Info writes `@var{x}` as `X` and `@dots{}` as `...`).
 */
const foldText = (text: string): string => text.toLowerCase().replace(/…/g, '...');

function foldedCase<T extends { headings: Map<string, number>; code: Map<string, number>; links: Map<string, number>; text: string }>(features: T): T {
  const fold = (map: Map<string, number>): Map<string, number> => {
    const result = new Map<string, number>();
    for (const [key, count] of map) result.set(foldText(key), (result.get(foldText(key)) ?? 0) + count);
    return result;
  };
  return { ...features, headings: fold(features.headings), code: fold(features.code), links: fold(features.links), text: foldText(features.text) };
}

/**
 * The sites whose sources are reStructuredText (docutils) or Texinfo (octave, read from its Info): scored as the Sphinx part scores its
 * pages (`run-sphinx.ts`: heading text, code text, external links, text F1; the source states no
 * list, table or emphasis that the reader takes), so printed apart with the Sphinx part's columns.
 */
function runRealRst(extractors: [string, Extractor][], pages: RealPage[], detail?: string): void {
  const tallies = new Map<string, SphinxTally>();
  const tally = (key: string): SphinxTally => {
    if (!tallies.has(key)) tallies.set(key, emptySphinxTally());
    return tallies.get(key)!;
  };
  const details: string[] = [];
  pages.forEach((page, index) => {
    const truth = page.site.foldsCase ? foldedCase(page.rst!) : page.rst!;
    const order = index % 2 === 0 ? extractors : [...extractors].reverse();
    for (const [extractorName, extract] of order) {
      const extracted = sphinxOutputFeatures(extract(page.html, `https://docs.example.com/${page.site.name}/${page.path}`).markdown);
      const output = page.site.foldsCase ? foldedCase(extracted) : extracted;
      const key = `${extractorName}|${page.site.name}`;
      const lost: string[] = [];
      for (const name of sphinxFeatures) {
        const counts = multisetRecall(truth[name], output[name]);
        tally(key).features[name].expected += counts.expected;
        tally(key).features[name].found += counts.found;
        if (counts.found < counts.expected) lost.push(`${name} ${counts.found}/${counts.expected}`);
      }
      const text = shingleCounts(truth.text, output.text, page.site.foldsCase ? foldText(page.generated) : page.generated);
      if (hasOwnText(truth.text)) tally(key).text.push(text);
      if (detail === page.site.name && !page.site.heldOut && extractorName === 'quarry') {
        details.push(`${page.path}: ${lost.join(', ')} text tp ${text.tp.toFixed(2)} fp ${text.fp.toFixed(2)} fn ${text.fn.toFixed(2)}`);
      }
    }
  });
  const shown = realSites.filter((site) => pages.some((page) => page.site === site));
  console.log(`\nreal non-Sphinx sites from reStructuredText and Texinfo, ${pages.length} pages, against their sources:`);
  console.log('headings (text), code (text), links (external, text + URL) = recall; text = aeb shingle F1; overall = mean of the four (as the Sphinx part)\n');
  const columns = [...sphinxFeatures, 'text', 'overall'] as const;
  console.log(['site'.padEnd(22), 'extractor'.padEnd(12), ...columns.map((column) => column.padStart(9))].join(''));
  for (const site of shown) {
    for (const [extractorName] of extractors) {
      const scores = sphinxScoresOf(tally(`${extractorName}|${site.name}`));
      const label = `${site.name} (${site.heldOut ? (site.fresh ? 'fresh' : 'held out') : 'tuning'})`;
      console.log([label.padEnd(22), extractorName.padEnd(12), ...columns.map((column) => fixed(scores[column]).padStart(9))].join(''));
    }
  }
  if (details.length > 0) console.log(`\npages of ${detail} where Quarry lost structure:\n${details.join('\n')}`);
}
