import { aebScores, type ShingleCounts } from '../main-content/metrics.js';
import { type Counts, type FeatureName, featureNames } from './score.js';

/** One extractor's counts over a set of pages: found/expected per feature, and each page's text shingles. */
export interface Tally {
  features: Record<FeatureName, Counts>;
  text: ShingleCounts[];
}

export const emptyTally = (): Tally => ({
  features: Object.fromEntries(featureNames.map((name) => [name, { expected: 0, found: 0 }])) as Record<FeatureName, Counts>,
  text: [],
});

/** The tally under `key`, made empty the first time. */
export function tallyIn(tallies: Map<string, Tally>, key: string): Tally {
  let tally = tallies.get(key);
  if (!tally) {
    tally = emptyTally();
    tallies.set(key, tally);
  }
  return tally;
}

/** Share of each feature found, the text's shingle F1, and their mean (`overall`). */
export function scoresOf(tally: Tally): Record<FeatureName | 'text' | 'overall', number> {
  const result = {} as Record<FeatureName | 'text' | 'overall', number>;
  for (const name of featureNames) {
    const { expected, found } = tally.features[name];
    result[name] = expected > 0 ? found / expected : 1;
  }
  result.text = aebScores(tally.text).f1;
  const parts = [...featureNames.map((name) => result[name]), result.text];
  result.overall = parts.reduce((sum, value) => sum + value, 0) / parts.length;
  return result;
}
