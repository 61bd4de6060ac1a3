/**
 * Merges answers extracted from several parts of one page (or several pages): objects field by
 * field, arrays concatenated without duplicates (by JSON value), scalars first-stated wins
 * (null, undefined and '' count as not stated).
 *
 *   mergeExtracted([{name: 'A', tags: ['x']}, {name: null, tags: ['x', 'y'], price: 3}])
 *     -> {name: 'A', tags: ['x', 'y'], price: 3}
 */
export function mergeExtracted(values: readonly unknown[]): unknown {
  return values.reduce<unknown>((merged, value) => mergeTwo(merged, value), undefined);
}

function mergeTwo(first: unknown, second: unknown): unknown {
  if (isAbsent(first)) return second;
  if (isAbsent(second)) return first;
  if (Array.isArray(first) && Array.isArray(second)) {
    const seen = new Set(first.map((item) => JSON.stringify(item)));
    return [...first, ...second.filter((item) => !seen.has(JSON.stringify(item)) && seen.add(JSON.stringify(item)))];
  }
  if (isRecord(first) && isRecord(second)) {
    const out: Record<string, unknown> = { ...first };
    for (const [key, value] of Object.entries(second)) out[key] = mergeTwo(first[key], value);
    return out;
  }
  return first;
}

const isAbsent = (value: unknown) => value === undefined || value === null || value === '';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
