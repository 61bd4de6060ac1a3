import type { ShingleCounts } from '../main-content/metrics.js';
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
