/**
 * Issue 13, task 13d (tried, not kept in core; the core version is commit eb63624): a learned
 * precision filter over the content's blocks. `run.ts --block-model 13d` applies it to Quarry's
 * output after `extractMainContent`; `block-features.ts` trains it.
 *
 * The content is cut into its top-level blocks (plain wrappers flattened), each block gets structural features only
 * (lengths, link and sentence shares, tag kind, position, nesting, repeated shape; no class or id
 * words), and a logistic regression trained on the tuning folds of the main-content benchmark
 * (`block-features.ts`) gives each one a probability of being boilerplate.
 * Runs of such blocks at the content's edges, before its first kept prose block and after its
 * last, are removed.
 */
import { type AnyNode, type Element, isTag, isText } from 'domhandler';
import {
  collapsedText,
  detachAll,
  documentSectionPeers,
  firstElement,
  hasCollapsedText,
  headingLevel,
  inlineTags,
  isNoteAside,
} from '../../packages/core/src/extract/dom-tools.js';

const isCodeBlock = (element: Element): boolean => element.name === 'pre';

/** Block tags: each is one block, whatever it holds. */
const blockTags: ReadonlySet<string> = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'dl',
  'table',
  'figure',
  'pre',
  'blockquote',
  'hr',
  'img',
  'picture',
  'video',
  'iframe',
  'math',
  'svg',
  'address',
]);

const listTags: ReadonlySet<string> = new Set(['ul', 'ol', 'dl']);
const mediaTags: ReadonlySet<string> = new Set(['table', 'figure', 'pre', 'img', 'picture', 'video', 'iframe', 'math', 'svg']);

export interface ContentBlock {
  element: Element;
  /** Wrappers between the content root and the block. */
  depth: number;
}

/** True when an element holds text or inline elements with text directly (not in nested blocks). */
function holdsInlineText(element: Element): boolean {
  for (const child of element.children) {
    if (isText(child)) {
      if (/\S/.test(child.data)) return true;
    } else if (isTag(child) && inlineTags.has(child.name) && child.name !== 'br' && child.name !== 'img' && child.name !== 'picture') {
      if (!hasBlockDescendant(child) && hasCollapsedText(child)) return true;
    }
  }
  return false;
}

function hasBlockDescendant(element: Element): boolean {
  const stack: AnyNode[] = [...element.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (!inlineTags.has(node.name)) return true;
    for (const child of node.children) stack.push(child);
  }
  return false;
}

/** The content's top-level blocks in document order, plain wrappers flattened (a loop, not recursion: broken markup nests deep). */
export function contentBlocks(root: Element): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (holdsInlineText(root)) return [{ element: root, depth: 0 }];
  const stack: ContentBlock[] = [];
  const pushChildren = (element: Element, depth: number): void => {
    for (let index = element.children.length - 1; index >= 0; index--) {
      const child = element.children[index]!;
      if (isTag(child)) stack.push({ element: child, depth });
    }
  };
  pushChildren(root, 0);
  while (stack.length > 0) {
    const { element, depth } = stack.pop()!;
    if (blockTags.has(element.name) || holdsInlineText(element) || !element.children.some(isTag)) {
      // A block without text (a picture, a rule, an empty box) is neither judged nor removed.
      if (hasCollapsedText(element)) blocks.push({ element, depth });
    } else pushChildren(element, depth + 1);
  }
  return blocks;
}

export const featureNames = [
  'logLength',
  'linkDensity',
  'sentenceShare',
  'logSentences',
  'logWords',
  'digitShare',
  'boldShare',
  'hasImage',
  'tagP',
  'tagHeading',
  'tagList',
  'tagMedia',
  'tagQuote',
  'tagOther',
  'depth',
  'position',
  'afterLastProse',
  'beforeFirstProse',
  'logDistanceFromProseRun',
  'shapeRepeats',
  'logLengthToMedianParagraph',
  'logLinks',
  'endsAsSentence',
  'endsWithColon',
] as const;

/** The index of `endsWithColon`, read by the run rule; the model reads the features before it. */
const colonFeature = 23;
export const modelInputCount = colonFeature;

interface BlockMeasure {
  text: string;
  length: number;
  linkLength: number;
  boldLength: number;
  links: number;
  images: number;
}

function measureBlock(element: Element): BlockMeasure {
  const measure: BlockMeasure = { text: collapsedText(element), length: 0, linkLength: 0, boldLength: 0, links: 0, images: 0 };
  measure.length = measure.text.length;
  const stack: [AnyNode, boolean, boolean][] = [[element, false, false]];
  while (stack.length > 0) {
    const [node, inLink, inBold] = stack.pop()!;
    if (isText(node)) {
      // Most text is in neither: measured only when it counts.
      if (!inLink && !inBold) continue;
      const length = node.data.replace(/\s+/g, ' ').length;
      if (inLink) measure.linkLength += length;
      if (inBold) measure.boldLength += length;
      continue;
    }
    if (!isTag(node)) continue;
    const name = node.name;
    if (name === 'a') measure.links++;
    if (name === 'img' || name === 'picture' || name === 'svg' || name === 'video') measure.images++;
    const link = inLink || name === 'a';
    const bold = inBold || name === 'b' || name === 'strong' || headingLevel(node) > 0;
    for (const child of node.children) stack.push([child, link, bold]);
  }
  return measure;
}

const terminalPattern = /[.!?\u3002\uff01\uff1f\u061f\u0964]["'\u201d\u2019\u00bb)\]]*$/;
const colonPattern = /[:\uff1a]$/;

/** Sentence ends: . ! ? and their CJK, Arabic and Devanagari forms. */
function isTerminal(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === 0x3f || code === 0x3002 || code === 0xff01 || code === 0xff1f || code === 0x61f || code === 0x964;
}

/** Closing quotes and brackets that may follow a sentence end. */
function isCloser(code: number): boolean {
  return code === 0x22 || code === 0x27 || code === 0x201d || code === 0x2019 || code === 0xbb || code === 0x29 || code === 0x5d;
}

/**
 * The share of the text in sentences (runs ending in a sentence end, closing quotes after it) and
 * how many there are, not counting fragments under 3 words and 12 characters. One pass (a regular
 * expression tried from every position was quadratic on long text without a sentence end).
 */
function sentenceStats(text: string): { share: number; count: number } {
  if (text.length === 0) return { share: 0, count: 0 };
  let inSentences = 0;
  let count = 0;
  let start = 0;
  let index = 0;
  while (index < text.length) {
    if (!isTerminal(text.charCodeAt(index))) {
      index++;
      continue;
    }
    while (index < text.length && isTerminal(text.charCodeAt(index))) index++;
    while (index < text.length && isCloser(text.charCodeAt(index))) index++;
    const sentence = text.slice(start, index);
    start = index;
    if (sentence.trim().split(/\s+/).length < 3 && sentence.length < 12) continue;
    inSentences += sentence.length;
    count++;
  }
  return { share: Math.min(1, inSentences / text.length), count };
}

function digitShare(text: string): number {
  let digits = 0;
  let chars = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 32) continue;
    chars++;
    if (code >= 48 && code <= 57) digits++;
  }
  return chars > 0 ? digits / chars : 0;
}

function shapeOf(element: Element): string {
  const children = element.children.filter(isTag).map((child) => child.name);
  return `${element.name}>${children.join(',')}`;
}

function isProse(element: Element, measure: BlockMeasure, share: number): boolean {
  if (headingLevel(element) > 0 || listTags.has(element.name) || mediaTags.has(element.name)) return false;
  return measure.length >= 150 && share >= 0.5 && measure.linkLength / Math.max(1, measure.length) < 0.3;
}

/** Each block's feature vector (`featureNames`' order). */
export function blockFeatures(blocks: ContentBlock[]): number[][] {
  const measures = blocks.map((block) => measureBlock(block.element));
  const sentences = measures.map((measure) => sentenceStats(measure.text));
  const prose = blocks.map((block, index) => isProse(block.element, measures[index]!, sentences[index]!.share));
  const total = measures.reduce((sum, measure) => sum + measure.length, 0);
  const firstProse = prose.indexOf(true);
  const lastProse = prose.lastIndexOf(true);
  // The densest prose run: the maximum-sum run of prose lengths less non-prose blocks' (capped) lengths.
  let bestStart = -1;
  let bestEnd = -1;
  let best = 0;
  let runStart = 0;
  let run = 0;
  for (let index = 0; index < blocks.length; index++) {
    const length = measures[index]!.length;
    const weight = prose[index] ? length : -Math.min(length, 200) - 20;
    if (run <= 0) {
      run = 0;
      runStart = index;
    }
    run += weight;
    if (run > best) {
      best = run;
      bestStart = runStart;
      bestEnd = index;
    }
  }
  const paragraphLengths = measures
    .filter((_measure, index) => blocks[index]!.element.name === 'p' || prose[index])
    .map((measure) => measure.length)
    .sort((a, b) => a - b);
  const medianParagraph = paragraphLengths.length > 0 ? paragraphLengths[Math.floor(paragraphLengths.length / 2)]! : 100;
  const shapes = blocks.map((block) => shapeOf(block.element));
  let before = 0;
  return blocks.map((block, index) => {
    const measure = measures[index]!;
    const { share, count } = sentences[index]!;
    const name = block.element.name;
    const isHeading = headingLevel(block.element) > 0;
    const isList = listTags.has(name);
    const isMedia = mediaTags.has(name);
    const isQuote = name === 'blockquote';
    const length = Math.max(1, measure.length);
    const distance = bestStart < 0 ? blocks.length : index < bestStart ? bestStart - index : index > bestEnd ? index - bestEnd : 0;
    const previous = blocks[index - 1];
    const next = blocks[index + 1];
    const repeats =
      (previous !== undefined && previous.element.parent === block.element.parent && shapes[index - 1] === shapes[index]) ||
      (next !== undefined && next.element.parent === block.element.parent && shapes[index + 1] === shapes[index]);
    const position = total > 0 ? before / total : 0;
    before += measure.length;
    return [
      Math.log1p(measure.length),
      Math.min(1, measure.linkLength / length),
      share,
      Math.log1p(count),
      Math.log1p(measure.text === '' ? 0 : measure.text.split(' ').length),
      digitShare(measure.text),
      Math.min(1, measure.boldLength / length),
      measure.images > 0 ? 1 : 0,
      name === 'p' ? 1 : 0,
      isHeading ? 1 : 0,
      isList ? 1 : 0,
      isMedia ? 1 : 0,
      isQuote ? 1 : 0,
      name !== 'p' && !isHeading && !isList && !isMedia && !isQuote ? 1 : 0,
      Math.min(block.depth, 6),
      position,
      lastProse >= 0 && index > lastProse ? 1 : 0,
      firstProse >= 0 && index < firstProse ? 1 : 0,
      Math.log1p(distance),
      repeats ? 1 : 0,
      Math.log((measure.length + 1) / (medianParagraph + 1)),
      Math.log1p(measure.links),
      terminalPattern.test(measure.text) ? 1 : 0,
      colonPattern.test(measure.text) ? 1 : 0,
    ];
  });
}

export interface BlockModel {
  means: number[];
  scales: number[];
  weights: number[];
  bias: number;
  threshold: number;
}

/** The probability that each block is boilerplate. */
export function boilerplateProbabilities(features: number[][], model: BlockModel): number[] {
  return features.map((row) => {
    let z = model.bias;
    for (let index = 0; index < model.weights.length; index++) z += model.weights[index]! * ((row[index]! - model.means[index]!) / model.scales[index]!);
    return 1 / (1 + Math.exp(-z));
  });
}

/**
 * Trained on the main-content benchmark's tuning folds 0-2 (named and opaque pages) by
 * `npx tsx benchmarks/main-content/block-features.ts --final <file>`; the threshold was chosen on
 * fold 2 with the model trained on folds 0,1 (see benchmarks/main-content/README.md, task 13d).
 */
const trainedModel: BlockModel = {
  means: [
    4.891837355034086, 0.028497531312945502, 0.7287186054016144, 0.9393721635723846, 3.1162606227886087, 0.026579196418516318, 0.19368563711302636,
    0.0321390937829294, 0.7939936775553214, 0.11591148577449947, 0.02370916754478398, 0.0136986301369863, 0.012644889357218124, 0.040042149631190724,
    0.9130663856691253, 0.43791767002701504, 0.10010537407797682, 0.052160168598524764, 1.3280858882646034, 0.3577449947312961, -0.1326294099902482,
    0.1483068650712619, 0.6401475237091675,
  ],
  scales: [
    1.3025553760273674, 0.11947528715481187, 0.4282935141857724, 0.759040010034145, 1.209302406145178, 0.057422426874275845, 0.3686903909248798,
    0.17636942034757838, 0.40443505975310196, 0.32011874865437706, 0.15214152266596173, 0.11623673115395429, 0.11173627938302919, 0.1960580931359496,
    1.5045865869034105, 0.31351936859501833, 0.300140447388699, 0.22234991659611664, 1.8304707244394878, 0.4793365346768379, 1.0167352472843432,
    0.4193089067809634, 0.47995694765071156,
  ],
  weights: [
    0.09316578113578086, 0.32271746099442983, 0.26374849395353744, -0.04609042364124994, -0.12279273131623934, -0.1312852109468471, 0.04296254289222616,
    0.13407243303029298, -0.27152594157152343, -0.012473023439727315, 0.1659076595926142, 0.18730322787986134, -0.1132503123130277, 0.4052302428825815,
    0.49646874870030555, 0.6335700971785129, -0.149988010382398, 0.42541215993622106, -0.2888523037541193, -0.35798300255673116, -0.5202346379912504,
    0.09874229132029241, -0.19808493739240482,
  ],
  bias: -4.396340992895062,
  threshold: 0.5,
};

/** The model the filter uses (undefined: the filter is off). */
let model: BlockModel | undefined = trainedModel;

/** For the benchmark tool: sets (or clears) the model the filter uses. */
export function setBlockModel(next: BlockModel | undefined): void {
  model = next;
}

/** A block of prose by its features: not a heading, list or media block, 150+ characters, half of them in sentences, under 30 % links. */
export function isProseFeatures(row: number[]): boolean {
  return row[9] === 0 && row[10] === 0 && row[11] === 0 && row[0]! >= Math.log1p(150) && row[2]! >= 0.5 && row[1]! < 0.3;
}

/** A block whose first element with text is a heading: a section, never removed. */
function opensWithHeading(element: Element): boolean {
  const first = element.children.find((child): child is Element => isTag(child) && hasCollapsedText(child));
  return first !== undefined && headingLevel(first) > 0;
}

/**
 * A run of more blocks than this is a structure of its own (a product's data sheet written as a
 * grid of `div`s, 48 short cells after the text), not the few label-like lines the filter is for.
 */
const longestRun = 4;

/** Blocks never removed: tables, code blocks, figures (a picture's text is content), the title. */
const keptTags: ReadonlySet<string> = new Set(['table', 'pre', 'figure', 'h1', 'ul', 'ol', 'dl']);

/**
 * Removes the runs of blocks at the content's edges (before its first kept prose block, after its
 * last) that the model takes for boilerplate. True when it removed any.
 */
export function filterEdgeBlocks(root: Element): boolean {
  if (!model) return false;
  // A content holding code is a technical document (a docs page, a README): not judged.
  if (firstElement(root, isCodeBlock)) return false;
  const blocks = contentBlocks(root);
  if (blocks.length < 3 || isSectionedDocument(blocks)) return false;
  const features = blockFeatures(blocks);
  const removed = edgeRunRemovals(root, blocks, features, boilerplateProbabilities(features, model), model.threshold);
  detachAll(removed.map((index) => blocks[index]!.element));
  return removed.length > 0;
}

/**
 * True when the content's blocks hold headings of one level (below the title) enough of them to be
 * a document's sections (`documentSectionPeers`): a docs page, a manual; not judged (cmake's
 * generator manual ends with its "Extra Generators" section's list of links).
 */
export function isSectionedDocument(blocks: ContentBlock[]): boolean {
  const counts = [0, 0, 0, 0, 0, 0, 0];
  for (const { element } of blocks) {
    const level = headingLevel(element);
    if (level > 1 && ++counts[level]! >= documentSectionPeers) return true;
  }
  return false;
}

/**
 * The indices of the blocks `filterEdgeBlocks` removes, given each block's probability of being
 * boilerplate: the runs before the first prose block and after the last whose blocks exceed
 * `threshold`, with the exceptions below.
 */
export function edgeRunRemovals(root: Element, blocks: ContentBlock[], features: number[][], probabilities: number[], threshold: number): number[] {
  if (blocks.length < 3) return [];
  // Prose (a long block of sentences, few links) is never removed: the filter is for the short,
  // linky, label-like blocks around the text; a false removal of text costs more than a kept label.
  const isProseBlock = (index: number): boolean => isProseFeatures(features[index]!);
  const removable = (index: number): boolean => {
    const element = blocks[index]!.element;
    if (element === root || keptTags.has(element.name) || isNoteAside(element) || isProseBlock(index) || opensWithHeading(element)) return false;
    return probabilities[index]! > threshold;
  };
  const firstProse = blocks.findIndex((_block, index) => isProseBlock(index));
  if (firstProse < 0) return [];
  let lastProse = firstProse;
  for (let index = blocks.length - 1; index > firstProse; index--) {
    if (isProseBlock(index)) {
      lastProse = index;
      break;
    }
  }
  const removed: number[] = [];
  // Trailing run: from the end back while the blocks read as boilerplate. A run that holds a
  // heading, or stands right under one, is a section (a docs page's "License" and its one line);
  // a run under a block ending in a colon is what that block announces (cmake's "configured using
  // the environment variables:" and its list): both stay.
  let start = blocks.length;
  while (start - 1 > lastProse && removable(start - 1)) start--;
  let isSection = headingLevel(blocks[start - 1]!.element) > 0 || features[start - 1]![colonFeature] === 1;
  for (let index = start; index < blocks.length && !isSection; index++) isSection = headingLevel(blocks[index]!.element) > 0;
  if (start < blocks.length && !isSection && blocks.length - start <= longestRun) {
    for (let index = start; index < blocks.length; index++) removed.push(index);
  }
  // Leading run: from the start while the blocks read as boilerplate; a heading followed by a kept block stays (it stops the run).
  const leading: number[] = [];
  for (let index = 0; index < firstProse && removable(index); index++) {
    if (headingLevel(blocks[index]!.element) > 0 && !removable(index + 1)) break;
    leading.push(index);
  }
  if (leading.length <= longestRun) removed.push(...leading);
  return removed;
}
