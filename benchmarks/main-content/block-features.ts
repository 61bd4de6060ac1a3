/**
 * Issue 13, task 13d: a learned block classifier over structural features. For every page of the
 * chosen folds, Quarry's extractor runs (as `extractors.ts` calls it), its final
 * content is cut into blocks (`contentBlocks` in block-classifier.ts),
 * each block gets structural features (`blockFeatures`: no class or id words) and a label:
 *
 * - aeb: the share of the block's 4-token shingles found in the page's `articleBody`: >= 0.5
 *   content, < 0.2 boilerplate, else unlabeled;
 * - traf: holds a `with` snippet -> content, a `without` snippet -> boilerplate, else unlabeled.
 *
 * A logistic regression (standardized features, L2) is trained on folds 0,1 and its removal
 * threshold chosen on fold 2 (validation) with the edge-run rule the core applies, so that a false
 * removal costs `--cost` (default 3) removals of boilerplate. Per-fold confusion is printed.
 *
 * Run from the repo root:
 *
 * ```sh
 * npx tsx benchmarks/main-content/block-features.ts                   # train on 0,1, threshold on 2, named + opaque pages
 * npx tsx benchmarks/main-content/block-features.ts --final /tmp/m.json  # also train on 0-2 and write the model
 * npx tsx benchmarks/main-content/run.ts --folds 0,1,2 --block-model /tmp/m.json   # that model's filter on, page scores
 * npx tsx benchmarks/main-content/run.ts --block-model 13d                     # the model block-classifier.ts carries
 * ```
 */
import { writeFileSync } from 'node:fs';
import type { Element } from 'domhandler';
import { findOne } from 'domutils';
import { parseDocument } from 'htmlparser2';
import {
  type BlockModel,
  blockFeatures,
  boilerplateProbabilities,
  contentBlocks,
  edgeRunRemovals,
  featureNames,
  type ContentBlock,
  isSectionedDocument,
  modelInputCount,
} from './block-classifier.js';
import { extractMainContent } from '../../packages/core/src/extract/index.js';
import { htmlToMarkdown } from '../../packages/core/src/markdown/index.js';
import { loadAeb, loadTraf } from './corpus.js';
import { foldOf } from './folds.js';
import { markdownToText } from './markdown-to-text.js';
import { collapseWhitespace } from './metrics.js';
import { withOpaqueNames } from './opaque-names.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const finalPath = flag('--final');
/** `--dev <file>`: writes the model trained on folds 0,1 with the threshold chosen on fold 2. */
const devPath = flag('--dev');
const cost = Number(flag('--cost') ?? 3);
const lambda = Number(flag('--lambda') ?? 0.01);
const folds = [0, 1, 2];
/** Weight of a boilerplate sample in the loss (they are few). */
const positiveWeight = Number(flag('--positive-weight') ?? 1);

interface Sample {
  page: string;
  corpus: 'aeb' | 'traf';
  opaque: boolean;
  fold: number;
  features: number[];
  /** 1 boilerplate, 0 content, undefined unlabeled. */
  label: 0 | 1 | undefined;
  tag: string;
  text: string;
  block: ContentBlock;
  root: Element;
  /** The content holds a code block or is a sectioned document: the core does not judge it. */
  hasCode: boolean;
}

interface PageSamples {
  samples: Sample[];
}

const tokenPattern = /[\p{L}\p{N}_]+/gu;
function shingleList(text: string): string[] {
  const tokens = text.match(tokenPattern) ?? [];
  const last = Math.max(1, tokens.length - 3);
  const result: string[] = [];
  for (let index = 0; index < last; index++) {
    const shingle = tokens.slice(index, index + 4).join(' ');
    if (shingle !== '') result.push(shingle);
  }
  return result;
}

interface PageBlock {
  element: Element;
  block: ContentBlock;
  root: Element;
  hasCode: boolean;
  features: number[];
  text: string;
}

function pageBlocks(html: string, url: string): PageBlock[] {
  const result = extractMainContent(parseDocument(html), { url });
  if (result.isFallback) return [];
  const root = result.document.children.find((node): node is Element => node.type === 'tag');
  if (!root) return [];
  const blocks = contentBlocks(root);
  const features = blockFeatures(blocks);
  const hasCode = findOne((element) => element.name === 'pre', [root]) !== null || isSectionedDocument(blocks);
  return blocks.map((block, index) => ({
    element: block.element,
    block,
    root,
    hasCode,
    features: features[index]!,
    text: markdownToText(htmlToMarkdown([block.element], { baseUrl: url })),
  }));
}

const pages: PageSamples[] = [];
for (const opaque of [false, true]) {
  const prepare = (html: string): string => (opaque ? withOpaqueNames(html) : html);
  for (const page of loadAeb()) {
    const fold = foldOf(page.url);
    if (!folds.includes(fold)) continue;
    const truth = new Set(shingleList(page.articleBody));
    const truthTokens = ` ${(page.articleBody.match(tokenPattern) ?? []).join(' ')} `;
    const samples = pageBlocks(prepare(page.html), page.url).map((block): Sample => {
      const shingles = shingleList(block.text);
      // A block of fewer than 4 tokens is one short shingle, never among the truth's: found when its tokens stand in the truth's sequence.
      const tokens = block.text.match(tokenPattern) ?? [];
      const share =
        tokens.length < 4
          ? truthTokens.includes(` ${tokens.join(' ')} `)
            ? 1
            : 0
          : shingles.length > 0
            ? shingles.filter((shingle) => truth.has(shingle)).length / shingles.length
            : 0;
      // aeb's articleBody leaves the title out; the product keeps it (never removed): unlabeled.
      const isTitle = block.element.name === 'h1';
      const label = shingles.length === 0 || isTitle ? undefined : share >= 0.5 ? 0 : share < 0.2 ? 1 : undefined;
      return {
        page: page.id,
        corpus: 'aeb',
        opaque,
        fold,
        features: block.features,
        label,
        tag: block.element.name,
        text: block.text,
        block: block.block,
        root: block.root,
        hasCode: block.hasCode,
      };
    });
    pages.push({ samples });
  }
  for (const page of loadTraf()) {
    const fold = foldOf(page.url);
    if (!folds.includes(fold)) continue;
    const samples = pageBlocks(prepare(page.html), page.url).map((block): Sample => {
      const text = collapseWhitespace(block.text);
      const has = (snippet: string): boolean => {
        const wanted = collapseWhitespace(snippet);
        return wanted !== '' && text.includes(wanted);
      };
      const isContent = page.with.some(has);
      const isBoilerplate = page.without.some(has);
      const label = isContent === isBoilerplate ? undefined : isBoilerplate ? 1 : 0;
      return {
        page: page.id,
        corpus: 'traf',
        opaque,
        fold,
        features: block.features,
        label,
        tag: block.element.name,
        text: block.text,
        block: block.block,
        root: block.root,
        hasCode: block.hasCode,
      };
    });
    pages.push({ samples });
  }
}

const all = pages.flatMap((page) => page.samples);
const labeled = all.filter((sample) => sample.label !== undefined);
console.log(`blocks ${all.length}, labeled ${labeled.length} (boilerplate ${labeled.filter((s) => s.label === 1).length})`);

/** Logistic regression, standardized features, L2, full-batch gradient descent. */
function train(samples: Sample[]): BlockModel {
  const dimension = modelInputCount;
  const means = Array.from({ length: dimension }, (_v, index) => samples.reduce((sum, s) => sum + s.features[index]!, 0) / samples.length);
  const scales = means.map((mean, index) => {
    const variance = samples.reduce((sum, s) => sum + (s.features[index]! - mean) ** 2, 0) / samples.length;
    return Math.sqrt(variance) || 1;
  });
  const rows = samples.map((s) => s.features.map((value, index) => (value - means[index]!) / scales[index]!));
  const weights = new Array<number>(dimension).fill(0);
  let bias = 0;
  const rate = 0.5;
  for (let step = 0; step < 2000; step++) {
    const gradient = new Array<number>(dimension).fill(0);
    let gradientBias = 0;
    rows.forEach((row, sampleIndex) => {
      let z = bias;
      for (let index = 0; index < dimension; index++) z += weights[index]! * row[index]!;
      const label = samples[sampleIndex]!.label!;
      const error = (1 / (1 + Math.exp(-z)) - label) * (label === 1 ? positiveWeight : 1);
      for (let index = 0; index < dimension; index++) gradient[index]! += error * row[index]!;
      gradientBias += error;
    });
    for (let index = 0; index < dimension; index++) weights[index]! -= rate * (gradient[index]! / rows.length + lambda * weights[index]!);
    bias -= (rate * gradientBias) / rows.length;
  }
  return { means, scales, weights, bias, threshold: 0.5 };
}

/** The core's edge-run rule (`edgeRunRemovals`) on a page's samples: the indices it removes. */
function edgeRemovals(samples: Sample[], probabilities: number[], threshold: number): number[] {
  const first = samples[0];
  if (!first || first.hasCode) return [];
  return edgeRunRemovals(
    first.root,
    samples.map((sample) => sample.block),
    samples.map((sample) => sample.features),
    probabilities,
    threshold,
  );
}

interface Tally {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  removedBoilerplate: number;
  removedContent: number;
  removedUnlabeled: number;
}

function tally(model: BlockModel, threshold: number, filter: (sample: Sample) => boolean): Tally {
  const result: Tally = { tp: 0, fp: 0, fn: 0, tn: 0, removedBoilerplate: 0, removedContent: 0, removedUnlabeled: 0 };
  for (const page of pages) {
    const samples = page.samples;
    if (samples.length === 0 || !filter(samples[0]!)) continue;
    const probabilities = boilerplateProbabilities(
      samples.map((s) => s.features),
      model,
    );
    samples.forEach((sample, index) => {
      if (sample.label === undefined) return;
      const predicted = probabilities[index]! > threshold;
      if (predicted && sample.label === 1) result.tp++;
      else if (predicted) result.fp++;
      else if (sample.label === 1) result.fn++;
      else result.tn++;
    });
    for (const index of edgeRemovals(samples, probabilities, threshold)) {
      const label = samples[index]!.label;
      if (label === 1) result.removedBoilerplate++;
      else if (label === 0) result.removedContent++;
      else result.removedUnlabeled++;
    }
  }
  return result;
}

const show = (t: Tally): string =>
  `block TP ${t.tp} FP ${t.fp} FN ${t.fn} TN ${t.tn} | edge runs remove: boilerplate ${t.removedBoilerplate}, content ${t.removedContent}, unlabeled ${t.removedUnlabeled}`;

const model = train(labeled.filter((s) => s.fold === 0 || s.fold === 1));
console.log('\nweights (standardized), trained on folds 0,1:');
featureNames.slice(0, modelInputCount).forEach((name, index) => console.log(`  ${name.padEnd(28)} ${model.weights[index]!.toFixed(3)}`));
console.log(`  bias ${model.bias.toFixed(3)}`);

const validation = (s: Sample): boolean => s.fold === 2;
let bestThreshold = 1;
let bestGain = 0;
console.log('\nthreshold on fold 2 (named + opaque): gain = boilerplate removed - cost x content removed');
for (let threshold = 0.5; threshold < 0.995; threshold += 0.025) {
  const t = tally(model, threshold, validation);
  const gain = t.removedBoilerplate - cost * t.removedContent;
  console.log(`  ${threshold.toFixed(3)}  gain ${gain}  ${show(t)}`);
  if (gain > bestGain) {
    bestGain = gain;
    bestThreshold = threshold;
  }
}
if (flag('--threshold')) bestThreshold = Number(flag('--threshold'));
console.log(`\nchosen threshold ${bestThreshold.toFixed(3)} (gain ${bestGain})`);
if (devPath) writeFileSync(devPath, `${JSON.stringify({ ...model, threshold: bestThreshold })}\n`);
for (const fold of folds) {
  for (const opaque of [false, true]) {
    for (const corpus of ['aeb', 'traf'] as const) {
      const t = tally(model, bestThreshold, (s) => s.fold === fold && s.opaque === opaque && s.corpus === corpus);
      console.log(`fold ${fold} ${opaque ? 'opaque' : 'named '} ${corpus.padEnd(4)} ${show(t)}`);
    }
  }
}
if (args.includes('--show')) {
  for (const page of pages) {
    const samples = page.samples;
    if (samples.length === 0) continue;
    const probabilities = boilerplateProbabilities(
      samples.map((s) => s.features),
      model,
    );
    for (const index of edgeRemovals(samples, probabilities, bestThreshold)) {
      const s = samples[index]!;
      console.log(
        `removed f${s.fold} ${s.opaque ? 'O' : 'N'} ${s.corpus} ${s.page.slice(0, 10)} label=${s.label ?? '-'} p=${probabilities[index]!.toFixed(2)} <${s.tag}> ${s.text.replace(/\s+/g, ' ').slice(0, 90)}`,
      );
    }
  }
}

if (args.includes('--labeled')) {
  // Every labeled boilerplate block with its probability and whether it lies in an edge region.
  for (const page of pages) {
    const samples = page.samples;
    if (samples.length === 0) continue;
    const probabilities = boilerplateProbabilities(
      samples.map((s) => s.features),
      model,
    );
    samples.forEach((s, index) => {
      if (s.label !== 1) return;
      const edge = s.features[16] === 1 ? 'after' : s.features[17] === 1 ? 'before' : 'inside';
      console.log(
        `boiler f${s.fold} ${s.opaque ? 'O' : 'N'} ${s.corpus} ${s.page.slice(0, 10)} ${edge.padEnd(6)} p=${probabilities[index]!.toFixed(2)} <${s.tag}> ${s.text.replace(/\s+/g, ' ').slice(0, 80)}`,
      );
    });
  }
}

if (finalPath) {
  const final = train(labeled);
  final.threshold = bestThreshold;
  writeFileSync(finalPath, `${JSON.stringify(final)}\n`);
  console.log(`\nfinal model (folds 0-2) written to ${finalPath}`);
}
