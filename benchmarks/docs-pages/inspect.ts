/**
 * One template (or one Sphinx site), Quarry only: which expected items each page loses.
 *
 *   npx tsx benchmarks/docs-pages/inspect.ts <template|bare> [--pages N] [--feature headings]
 *   npx tsx benchmarks/docs-pages/inspect.ts sphinx:<site> [--sphinx N]
 *   ... --opaque-names   (class and id names made meaningless first, as run.ts does)
 */
import { loadQuarryMarkdown, quarryExtractor } from '../main-content/extractors.js';
import { loadSourcePages } from './corpus.js';
import { dress } from './dress.js';
import { codeKey, sectionTitle } from './rst.js';
import { featureNames, featuresOfHtml, featuresOfMarkdown } from './score.js';
import { opaqueExtractors } from './opaque.js';
import { loadSphinxPages } from './sphinx-corpus.js';
import { moreTemplates } from './templates-more.js';
import { templates } from './templates.js';

const args = process.argv.slice(2);
const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const target = args[0] ?? 'docusaurus';
const only = option('--feature');
const { toMarkdown } = await loadQuarryMarkdown();
const named = quarryExtractor(toMarkdown);
const extract = args.includes('--opaque-names') ? opaqueExtractors([['quarry', named]], true)[0]![1] : named;

function missing(expected: Map<string, number>, output: Map<string, number>): string[] {
  return [...expected].filter(([key, count]) => (output.get(key) ?? 0) < count).map(([key]) => key.replace(/\u0000/g, ' | ').slice(0, 100));
}

if (target.startsWith('sphinx:')) {
  for (const page of loadSphinxPages(Number(option('--sphinx') ?? 30)).filter((p) => p.site.name === target.slice(7))) {
    const features = featuresOfMarkdown(extract(page.html, 'https://docs.example.com/x').markdown);
    const headings = new Map([...features.headings].map(([key, count]) => [sectionTitle(key.replace(/^h\d /, '')), count]));
    const code = new Map([...features.code].map(([key, count]) => [codeKey(key.split('\u0000')[1] ?? ''), count]));
    const lost = [...missing(page.truth.headings, headings).map((key) => `heading: ${key}`), ...missing(page.truth.code, code).map((key) => `code: ${key}`)];
    if (lost.length > 0) console.log(`${page.path}\n  ${lost.slice(0, 8).join('\n  ')}`);
  }
} else {
  const template = [...templates, ...moreTemplates].find((candidate) => candidate.name === target);
  for (const page of loadSourcePages(Number(option('--pages') ?? 240))) {
    const html = template
      ? dress(page.html, template, ['introduction', 'installation']).page
      : `<!doctype html><html><head><title>Doc</title></head><body>${page.html}</body></html>`;
    const truth = featuresOfHtml(page.html);
    const output = featuresOfMarkdown(extract(html, 'https://docs.example.com/guide/page').markdown);
    const lost = featureNames.filter((name) => !only || name === only).flatMap((name) => missing(truth[name], output[name]).map((key) => `${name}: ${key}`));
    if (lost.length > 0) console.log(`${page.path}\n  ${lost.slice(0, 8).join('\n  ')}`);
  }
}
