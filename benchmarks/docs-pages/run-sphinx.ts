/**
 * The real Sphinx part of the docs-pages benchmark: each installed site's HTML pages through both
 * extractors, scored against the page's reStructuredText source: heading text, code text, external
 * links (text + URL) as recall, and the aeb shingle F1 of the text; overall is their mean. Sites
 * are printed one by one and as the tuning and held-out parts.
 */
import { aebScores, shingleBreak, shingleCounts, type ShingleCounts } from '../main-content/metrics.js';
import type { Extractor } from '../main-content/extractors.js';
import { canonical, codeKey, sectionTitle } from './rst.js';
import { featuresOfMarkdown, multisetRecall, type Counts } from './score.js';
import { loadSphinxPages, sphinxSites } from './sphinx-corpus.js';

export const sphinxFeatures = ['headings', 'code', 'links'] as const;
type SphinxFeature = (typeof sphinxFeatures)[number];

export interface SphinxTally {
  features: Record<SphinxFeature, Counts>;
  text: ShingleCounts[];
}

export const emptySphinxTally = (): SphinxTally => ({
  features: { headings: { expected: 0, found: 0 }, code: { expected: 0, found: 0 }, links: { expected: 0, found: 0 } },
  text: [],
});

function rekey(map: Map<string, number>, key: (old: string) => string): Map<string, number> {
  const result = new Map<string, number>();
  for (const [old, count] of map) {
    const next = key(old);
    result.set(next, (result.get(next) ?? 0) + count);
  }
  return result;
}

export function sphinxOutputFeatures(markdown: string) {
  // Both extractors alike: formulas are images whose alt is the LaTeX the source states.
  const features = featuresOfMarkdown(markdown, { readsImageAlt: true });
  return {
    headings: rekey(features.headings, (key) => sectionTitle(key.replace(/^h\d /, ''))),
    code: rekey(features.code, (key) => codeKey(key.split('\u0000')[1] ?? '')),
    links: rekey(features.links, (key) => {
      const at = key.lastIndexOf(' -> ');
      return `${canonical(key.slice(0, at))}${key.slice(at)}`;
    }),
    text: canonical(features.text),
  };
}

export function sphinxScoresOf(tally: SphinxTally): Record<SphinxFeature | 'text' | 'overall', number> {
  const result = {} as Record<SphinxFeature | 'text' | 'overall', number>;
  for (const name of sphinxFeatures) {
    const { expected, found } = tally.features[name];
    result[name] = expected > 0 ? found / expected : 1;
  }
  result.text = aebScores(tally.text).f1;
  result.overall = (result.headings + result.code + result.links + result.text) / 4;
  return result;
}

const fixed = (value: number): string => value.toFixed(3);

/**
 * Whether the source states at least one shingle (four words) of text of its own. A page whose
 * source is a title over autodoc directives (astropy's `api/*.html`) has none: all its text is
 * generated and excused, so its text score would be made of the few junction words left over, on
 * both extractors alike; such a page is scored on headings, code and links only. The shingle is
 * counted between the gaps generated regions leave (`shingleBreak`): titles over automodule and
 * toctree output state none.
 */
export const hasOwnText = (text: string): boolean => text.split(shingleBreak).some((part) => (part.match(/[\p{L}\p{N}_]+/gu) ?? []).length >= 4);

export function runSphinx(
  extractors: [string, Extractor][],
  perSite: number,
  detail?: string,
  tuningOnly = false,
  excuseGenerated = true,
  templated?: (root: string, path: string) => Extractor,
): void {
  const pages = loadSphinxPages(perSite, excuseGenerated).filter((page) => !(tuningOnly && page.site.heldOut));
  if (pages.length === 0) {
    console.log(
      '\nreal Sphinx sites: none installed (apt-get install -y sphinx-doc python3-doc cmake-doc python-requests-doc python-flask-doc python-dask-doc python-celery-doc python-cryptography-doc python-pygments-doc python-xarray-doc python-tornado-doc python-babel-doc python-sympy-doc python-astropy-doc python-h5py-doc python-designateclient-doc python-pandas-doc python-nipype-doc python-pygame-doc python-statsmodels-doc python-sqlobject-doc)',
    );
    return;
  }
  const tallies = new Map<string, SphinxTally>();
  const tally = (key: string): SphinxTally => {
    if (!tallies.has(key)) tallies.set(key, emptySphinxTally());
    return tallies.get(key)!;
  };
  const details: string[] = [];
  pages.forEach((page, index) => {
    const all: [string, Extractor][] = templated ? [...extractors, ['quarry+site', templated(page.site.root, page.path)]] : extractors;
    const order = index % 2 === 0 ? all : [...all].reverse();
    const url = `https://docs.example.com/${page.site.name}/${page.path}`;
    for (const [extractorName, extract] of order) {
      const output = sphinxOutputFeatures(extract(page.html, url).markdown);
      const keys = [`${extractorName}|${page.site.name}`, `${extractorName}|${page.site.heldOut ? 'heldout' : 'tuning'}`];
      if (page.site.heldOut) keys.push(`${extractorName}|${page.site.fresh ? 'fresh' : 'earlier'}`);
      const lost: string[] = [];
      for (const key of keys) {
        for (const name of sphinxFeatures) {
          const counts = multisetRecall(page.truth[name], output[name]);
          tally(key).features[name].expected += counts.expected;
          tally(key).features[name].found += counts.found;
          if (key === keys[0] && counts.found < counts.expected) lost.push(`${name} ${counts.found}/${counts.expected}`);
        }
        if (hasOwnText(page.truth.text)) tally(key).text.push(shingleCounts(page.truth.text, output.text, page.generated));
      }
      if (detail === page.site.name && extractorName === 'quarry') {
        const text = shingleCounts(page.truth.text, output.text, page.generated);
        details.push(`${page.path}: ${lost.join(', ')} text tp ${text.tp.toFixed(2)} fp ${text.fp.toFixed(2)} fn ${text.fn.toFixed(2)}`);
      }
    }
  });
  const sites = sphinxSites.filter((site) => pages.some((page) => page.site === site));
  console.log(`\nreal Sphinx builds (Debian packages), ${pages.length} pages, against their _sources/*.rst.txt:`);
  console.log('headings (text), code (text), links (external, text + URL) = recall; text = aeb shingle F1; overall = mean of the four\n');
  const columns = [...sphinxFeatures, 'text', 'overall'] as const;
  console.log(['site'.padEnd(22), 'extractor'.padEnd(12), ...columns.map((column) => column.padStart(9))].join(''));
  const rows = [
    ...sites.map((site) => [site.name, `${site.name} (${site.heldOut ? (site.fresh ? 'fresh' : 'held out') : 'tuning'})`]),
    ['tuning', 'tuning sites'],
    ...(sites.some((site) => site.heldOut)
      ? [
          ['heldout', 'held-out sites'],
          ['earlier', 'earlier held-out'],
          ['fresh', 'fresh held-out'],
        ]
      : []),
  ];
  for (const [key, label] of rows) {
    for (const extractorName of [...extractors.map(([extractorName]) => extractorName), ...(templated ? ['quarry+site'] : [])]) {
      const scores = sphinxScoresOf(tally(`${extractorName}|${key}`));
      console.log([label!.padEnd(22), extractorName.padEnd(12), ...columns.map((column) => fixed(scores[column]).padStart(9))].join(''));
    }
  }
  if (details.length > 0) console.log(`\npages of ${detail} where Quarry lost structure:\n${details.join('\n')}`);
}
