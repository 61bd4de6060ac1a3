/**
 * Docs pages in a template: does onlyMainContent keep a documentation page's structure when the
 * page sits inside a docs generator's chrome? Real markdown (node_modules READMEs and docs),
 * rendered bare and inside ten generators' templates, and real Sphinx builds scored against their
 * reStructuredText sources, through Quarry's extractor and @mozilla/readability + turndown in the
 * same run. Held-out and tuning parts are printed apart (the split is in README.md).
 *
 *   npx tsx benchmarks/docs-pages/run.ts [--pages N] [--sphinx N] [--pages-detail template|site] [--quarry-only]
 *     [--variants bare,docusaurus]   (only these variants: a quicker look while tuning)
 *     [--tuning-only]   (Sphinx: only the tuning sites, so tuning runs never print a held-out figure)
 *     [--no-excuse]   (Sphinx: score text the build generated as chrome, as before task 13r)
 *     [--real N]   (real non-Sphinx sites, git, Node and docutils: up to N pages each; 0 skips them)
 *     [--generators N]   (real mdBook, rustdoc, Javadoc and MkDocs pages: up to N of each sample, tuning half;
 *       0, the default, skips them; with --generators-heldout the held-out half too, read once;
 *       Doxygen and gtk-doc since task 13i; --generators-fresh: only task 13i's fresh held-out set of
 *       13g's mdBook, rustdoc and Javadoc, read once; --generators-fresh2: only task 13j's second fresh set
 *       of every generator but MkDocs, read once; --generators-new: only task 13n's gi-docgen, Apache httpd
 *       manual and SQLite samples, tuning half unless --generators-heldout)
 *     [--opaque-names]   (every part: class tokens and ids made meaningless before both extractors, in-page
 *       references kept consistent and code-language tokens kept; see opaque.ts)
 *     [--opaque-languages]   (with --opaque-names: `language-*`/`lang-*` tokens made meaningless too)
 *     [--site-template]   (templates, Sphinx, generators: a `quarry+site` row, Quarry with the template learnt
 *       from the page's start page applied, site-templates.ts; not under --opaque-names)
 */
import { createHash } from 'node:crypto';
import { shingleCounts } from '../main-content/metrics.js';
import { loadQuarryMarkdown, quarryExtractor, readabilityExtractor, type Extractor } from '../main-content/extractors.js';
import { loadSourcePages, type SourcePage } from './corpus.js';
import { dress } from './dress.js';
import { featureNames, featuresOfHtml, featuresOfMarkdown, multisetRecall, type Counts, type Features, type FeatureName } from './score.js';
import { scoresOf, type Tally, tallyIn } from './tally.js';
import { runGenerators } from './run-generators.js';
import { runReal } from './run-real.js';
import { runSphinx } from './run-sphinx.js';
import { siteTemplateExtractorFrom, siteTemplateExtractors, siteTemplateStats } from './site-templates.js';
import { opaqueExtractors } from './opaque.js';
import { heldOutTemplates, moreTemplates, templatesWithoutCodeLanguage } from './templates-more.js';
import { templates as firstTemplates } from './templates.js';

const templates = [...firstTemplates, ...moreTemplates];

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const pageLimit = Number(option('--pages') ?? 240);
const sphinxPerSite = Number(option('--sphinx') ?? 30);
const realPerSite = Number(option('--real') ?? 30);
const generatorsPerSite = Number(option('--generators') ?? 0);
const detail = option('--pages-detail');
const folds = 5;

/** The same features with code languages dropped (for a template that does not show them). */
function withoutLanguages(features: Features): Features {
  const code = new Map<string, number>();
  for (const [key, count] of features.code) code.set(`\u0000${key.split('\u0000')[1]}`, (code.get(`\u0000${key.split('\u0000')[1]}`) ?? 0) + count);
  return { ...features, code };
}

function addPage(tally: Tally, truth: Features, output: Features): Record<FeatureName, Counts> {
  const page = {} as Record<FeatureName, Counts>;
  for (const name of featureNames) {
    const counts = multisetRecall(truth[name], output[name]);
    page[name] = counts;
    tally.features[name].expected += counts.expected;
    tally.features[name].found += counts.found;
  }
  tally.text.push(shingleCounts(truth.text, output.text));
  return page;
}

function foldOf(project: string): number {
  return createHash('sha256').update(project).digest()[0]! % folds;
}

const fixed = (value: number): string => value.toFixed(3);

async function main(): Promise<void> {
  const pages = loadSourcePages(pageLimit);
  const projects = new Set(pages.map((page) => page.project));
  const { toMarkdown, name } = await loadQuarryMarkdown();
  let extractors: [string, Extractor][] = [
    ['quarry', quarryExtractor(toMarkdown)],
    ['readability', readabilityExtractor],
  ].filter(([name]) => !args.includes('--quarry-only') || name === 'quarry') as [string, Extractor][];
  if (args.includes('--opaque-names')) extractors = opaqueExtractors(extractors, !args.includes('--opaque-languages'));
  const only = option('--variants')?.split(',');
  const variants = ['bare', ...templates.map((template) => template.name)].filter((variant) => !only || only.includes(variant));
  const tallies = new Map<string, Tally>();
  const tally = (key: string): Tally => tallyIn(tallies, key);
  const siblings = ['introduction', 'installation', 'getting-started', 'configuration', 'api-reference', 'examples', 'faq', 'changelog'];
  const details: string[] = [];

  // --site-template: each variant's start page is the first source page in that variant's chrome.
  const siteExtractors = new Map<string, Extractor>();
  if (args.includes('--site-template') && pages[0]) {
    for (const variant of variants) {
      const template = templates.find((candidate) => candidate.name === variant);
      if (template) siteExtractors.set(variant, siteTemplateExtractorFrom(toMarkdown, dress(pages[0].html, template, siblings).page));
    }
    extractors = [...extractors, ['quarry+site', quarryExtractor(toMarkdown)]];
  }
  pages.forEach((page: SourcePage, index) => {
    const truth = featuresOfHtml(page.html);
    const fold = foldOf(page.project);
    for (const variant of variants) {
      const template = templates.find((candidate) => candidate.name === variant);
      const html = template
        ? dress(page.html, template, siblings).page
        : `<!doctype html><html><head><title>Doc</title></head><body>${page.html}</body></html>`;
      const all: [string, Extractor][] = extractors.map(([name, extract]) => [
        name,
        name === 'quarry+site' && index > 0 ? (siteExtractors.get(variant) ?? extract) : extract,
      ]);
      const order = index % 2 === 0 ? all : [...all].reverse();
      const noLanguage = templatesWithoutCodeLanguage.has(variant);
      const expected = noLanguage ? withoutLanguages(truth) : truth;
      const part = heldOutTemplates.has(variant) ? 'heldout' : 'tuning';
      for (const [extractorName, extract] of order) {
        const markdown = extract(html, 'https://docs.example.com/guide/page').markdown;
        const output = noLanguage ? withoutLanguages(featuresOfMarkdown(markdown)) : featuresOfMarkdown(markdown);
        const counts = addPage(tally(`${extractorName}|${variant}`), expected, output);
        if (variant !== 'bare') {
          addPage(tally(`${extractorName}|templates`), expected, output);
          addPage(tally(`${extractorName}|${part}`), expected, output);
          addPage(tally(`${extractorName}|${part}|fold${fold}`), expected, output);
        }
        if (detail === variant && extractorName === 'quarry') {
          const lost = featureNames.filter((feature) => counts[feature].found < counts[feature].expected);
          if (lost.length > 0)
            details.push(`${page.path}: ${lost.map((feature) => `${feature} ${counts[feature].found}/${counts[feature].expected}`).join(', ')}`);
        }
      }
    }
  });

  console.log(`${pages.length} pages from ${projects.size} projects (node_modules READMEs and docs); Quarry markdown: ${name}`);
  console.log(`held-out templates: ${[...heldOutTemplates].join(', ')}; tuning: the others`);
  console.log('feature recall against the bare GFM rendering; text = aeb shingle F1; overall = mean of the seven');
  if (args.includes('--opaque-names'))
    console.log(
      `class and id names replaced by meaningless ones (--opaque-names), code-language tokens ${args.includes('--opaque-languages') ? 'too' : 'kept'}`,
    );
  console.log('');
  const columns = [...featureNames, 'text', 'overall'] as const;
  console.log(['template'.padEnd(16), 'extractor'.padEnd(12), ...columns.map((column) => column.padStart(9))].join(''));
  for (const variant of [...variants, 'templates', 'tuning', 'heldout']) {
    for (const [extractorName] of extractors) {
      const scores = scoresOf(tally(`${extractorName}|${variant}`));
      console.log([variant.padEnd(16), extractorName.padEnd(12), ...columns.map((column) => fixed(scores[column]).padStart(9))].join(''));
    }
  }
  for (const part of ['tuning', 'heldout']) {
    console.log(`\n${part} templates, by fold of projects (overall / headings):`);
    for (const [extractorName] of extractors) {
      const perFold = Array.from({ length: folds }, (_, fold) => scoresOf(tally(`${extractorName}|${part}|fold${fold}`)));
      const overall = perFold.map((scores) => scores.overall);
      const mean = overall.reduce((sum, value) => sum + value, 0) / folds;
      const spread = Math.max(...overall) - Math.min(...overall);
      console.log(
        `${extractorName.padEnd(12)} ${perFold.map((scores) => `${fixed(scores.overall)}/${fixed(scores.headings)}`).join('  ')}   mean ${fixed(mean)} spread ${fixed(spread)}`,
      );
    }
  }
  const templated = args.includes('--site-template') ? siteTemplateExtractors(toMarkdown) : undefined;
  extractors = extractors.filter(([name]) => name !== 'quarry+site');
  if (sphinxPerSite > 0) runSphinx(extractors, sphinxPerSite, detail, args.includes('--tuning-only'), !args.includes('--no-excuse'), templated);
  if (realPerSite > 0) runReal(extractors, realPerSite, detail, args.includes('--tuning-only'));
  if (generatorsPerSite > 0)
    runGenerators(
      extractors,
      generatorsPerSite,
      args.includes('--generators-heldout'),
      detail,
      args.includes('--generators-fresh2') ? 'fresh2' : args.includes('--generators-fresh') ? 'fresh' : false,
      args.includes('--generators-new'),
      templated,
    );
  if (args.includes('--site-template')) console.log('\nsite template:', JSON.stringify(siteTemplateStats));
  if (details.length > 0) console.log(`\npages of ${detail} where Quarry lost structure:\n${details.join('\n')}`);
}

await main();
