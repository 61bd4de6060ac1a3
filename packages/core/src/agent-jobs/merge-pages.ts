/**
 * Merges what several pages said into one answer: objects field by field, arrays concatenated
 * with duplicates dropped, scalars by agreement (the value most pages state; a tie goes to the
 * page that came first). Absent values (null, undefined, '') do not vote. Each field keeps the
 * pages it came from: `sources['price']` lists the pages that agreed on the price chosen,
 * `sources['products']` the pages that gave products and `sources['products[1]']` the page(s) of
 * the second one.
 *
 *   mergePages([{url: 'a', value: {name: 'Kettle', tags: ['x']}}, {url: 'b', value: {name: 'Kettle', tags: ['y']}},
 *               {url: 'c', value: {name: 'Pot'}}])
 *     -> {value: {name: 'Kettle', tags: ['x', 'y']}, sources: {name: ['a', 'b'], tags: ['a', 'b'], 'tags[0]': ['a'], 'tags[1]': ['b']}}
 */
export interface PageValue {
  url: string;
  value: unknown;
}

export interface MergedPages {
  value: unknown;
  sources: Record<string, string[]>;
}

export function mergePages(pages: readonly PageValue[]): MergedPages {
  const sources: Record<string, string[]> = {};
  const value = mergeAt(
    pages.filter((page) => !isAbsent(page.value)),
    '',
    sources,
  );
  return { value: value ?? null, sources };
}

function mergeAt(pages: PageValue[], path: string, sources: Record<string, string[]>): unknown {
  const present = pages.filter((page) => !isAbsent(page.value));
  if (present.length === 0) return undefined;
  if (present.every((page) => isRecord(page.value))) {
    const out: Record<string, unknown> = {};
    const keys = [...new Set(present.flatMap((page) => Object.keys(page.value as Record<string, unknown>)))];
    for (const key of keys) {
      const merged = mergeAt(
        present.map((page) => ({ url: page.url, value: (page.value as Record<string, unknown>)[key] })),
        path ? `${path}.${key}` : key,
        sources,
      );
      if (merged !== undefined) out[key] = merged;
    }
    return out;
  }
  if (present.some((page) => Array.isArray(page.value))) return mergeArrays(present, path, sources);
  return mergeScalars(present, path, sources);
}

function mergeArrays(pages: PageValue[], path: string, sources: Record<string, string[]>): unknown[] {
  const items: unknown[] = [];
  const itemSources: string[][] = [];
  const indexOf = new Map<string, number>();
  for (const page of pages) {
    for (const item of Array.isArray(page.value) ? page.value : [page.value]) {
      if (isAbsent(item)) continue;
      const key = identity(item);
      const known = indexOf.get(key);
      if (known !== undefined) {
        if (!itemSources[known]!.includes(page.url)) itemSources[known]!.push(page.url);
        continue;
      }
      indexOf.set(key, items.length);
      items.push(item);
      itemSources.push([page.url]);
    }
  }
  if (path) {
    sources[path] = [...new Set(itemSources.flat())];
    itemSources.forEach((urls, index) => (sources[`${path}[${index}]`] = urls));
  }
  return items;
}

function mergeScalars(pages: PageValue[], path: string, sources: Record<string, string[]>): unknown {
  const votes = new Map<string, { value: unknown; urls: string[] }>();
  for (const page of pages) {
    const key = identity(page.value);
    const vote = votes.get(key) ?? { value: page.value, urls: [] };
    if (!vote.urls.includes(page.url)) vote.urls.push(page.url);
    votes.set(key, vote);
  }
  // Map order is first-seen order, so the first page wins a tie.
  let best: { value: unknown; urls: string[] } | undefined;
  for (const vote of votes.values()) if (!best || vote.urls.length > best.urls.length) best = vote;
  if (path && best) sources[path] = best.urls;
  return best?.value;
}

/** Values that say the same thing compare equal: strings by trimmed lowercase, objects by sorted JSON. */
function identity(value: unknown): string {
  if (typeof value === 'string') return `s:${value.trim().replace(/\s+/g, ' ').toLowerCase()}`;
  return `j:${JSON.stringify(sortKeys(value))}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isRecord(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').toLowerCase() : value;
}

const isAbsent = (value: unknown) => value === undefined || value === null || value === '';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
