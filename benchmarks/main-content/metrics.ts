/**
 * The two scores of the extraction-dev README, computed exactly as it defines them.
 *
 * aeb (scrapinghub/article-extraction-benchmark): 4-token shingles of `\w+` tokens, compared as
 * multisets; per page tp/fp/fn normalised to sum to 1; precision is the mean over pages that
 * produced output, recall the mean over all pages, F1 from those two means.
 *
 * traf (trafilatura's evaluation): whitespace collapsed; each `with` snippet found is a TP, each
 * missing one an FN, each `without` snippet found an FP; summed over pages, F1 = 2TP/(2TP+FP+FN).
 */

export interface ShingleCounts {
  tp: number;
  fp: number;
  fn: number;
}

const tokenPattern = /[\p{L}\p{N}_]+/gu;
const shingleSize = 4;

/**
 * Where a text has a gap no extractor can fill (docs-pages: a region the build generates, which
 * the ground truth does not state): no shingle spans it. Texts without one are read as before.
 */
export const shingleBreak = '\u001e';

function shingles(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const parts = text.split(shingleBreak);
  for (const part of parts) {
    const tokens = part.match(tokenPattern) ?? [];
    // A part shorter than a shingle between two gaps makes none (a lone title between two tables).
    if (parts.length > 1 && tokens.length < shingleSize) continue;
    const last = Math.max(1, tokens.length - shingleSize + 1);
    for (let index = 0; index < last; index++) {
      const shingle = tokens.slice(index, index + shingleSize).join(' ');
      if (shingle !== '') counts.set(shingle, (counts.get(shingle) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Normalised tp/fp/fn of one page (all zero when both texts are empty). `excused` is text the
 * page shows that the ground truth cannot know (docs-pages: what Sphinx generates at build time):
 * copies of its shingles that the prediction has beyond the truth's count are not counted at all,
 * neither as false positives nor as matches, so keeping or dropping it does not change the score.
 */
export function shingleCounts(expected: string, predicted: string, excused = ''): ShingleCounts {
  const truth = shingles(expected);
  const prediction = shingles(predicted);
  const pardoned = excused === '' ? new Map<string, number>() : shingles(excused);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const key of new Set([...truth.keys(), ...prediction.keys()])) {
    const trueCount = truth.get(key) ?? 0;
    const shown = prediction.get(key) ?? 0;
    const predictedCount = Math.max(Math.min(shown, trueCount), shown - (pardoned.get(key) ?? 0));
    tp += Math.min(trueCount, predictedCount);
    fp += Math.max(0, predictedCount - trueCount);
    fn += Math.max(0, trueCount - predictedCount);
  }
  const sum = tp + fp + fn;
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp, fp, fn };
}

export interface Scores {
  precision: number;
  recall: number;
  f1: number;
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function f1Of(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/** aeb: mean precision over pages with output, mean recall over all pages. */
export function aebScores(pages: ShingleCounts[]): Scores {
  const precision = mean(pages.filter((page) => page.tp + page.fp > 0).map((page) => page.tp / (page.tp + page.fp)));
  const recall = mean(pages.map((page) => (page.tp + page.fn > 0 ? page.tp / (page.tp + page.fn) : 0)));
  return { precision, recall, f1: f1Of(precision, recall) };
}

export interface SnippetCounts {
  tp: number;
  fp: number;
  fn: number;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** traf: snippet hits of one page. */
export function snippetCounts(text: string, withSnippets: string[], withoutSnippets: string[]): SnippetCounts {
  const haystack = collapseWhitespace(text);
  const found = (snippet: string): boolean => haystack.includes(collapseWhitespace(snippet));
  const tp = withSnippets.filter(found).length;
  return { tp, fn: withSnippets.length - tp, fp: withoutSnippets.filter(found).length };
}

/** traf: F1 over the summed counts; precision and recall from the same sums. */
export function trafScores(pages: SnippetCounts[]): Scores {
  const tp = pages.reduce((sum, page) => sum + page.tp, 0);
  const fp = pages.reduce((sum, page) => sum + page.fp, 0);
  const fn = pages.reduce((sum, page) => sum + page.fn, 0);
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0;
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0;
  return { precision, recall, f1: tp > 0 ? (2 * tp) / (2 * tp + fp + fn) : 0 };
}
