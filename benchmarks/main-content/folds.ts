/**
 * The split of extraction-dev by site: a hash of the hostname picks one of five folds, so no site is
 * in two folds. Folds 0-2 are for tuning; 3 and 4 are held out (their pages are not inspected; only
 * their aggregate figure is read, once a change is final).
 */
import { createHash } from 'node:crypto';

export const foldCount = 5;
export const tuningFolds: readonly number[] = [0, 1, 2];

/** The fold of a page: a hash of its site, so no site is in two folds. */
export function foldOf(url: string): number {
  let host = url;
  try {
    host = new URL(url).hostname.replace(/^www\./, '');
  } catch {
    // not a URL: the string itself
  }
  return createHash('sha256').update(host).digest()[0]! % foldCount;
}

/** `--folds 0,1,2` -> [0, 1, 2]; absent -> undefined (every fold). */
export function parseFolds(value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const folds = value.split(',').map((part) => Number(part.trim()));
  if (folds.some((fold) => !Number.isInteger(fold) || fold < 0 || fold >= foldCount)) {
    throw new Error(`--folds takes fold numbers 0-${foldCount - 1} separated by commas, got "${value}"`);
  }
  return folds;
}
