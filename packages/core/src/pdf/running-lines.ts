import type { PdfLine } from './text-lines.js';

/** Only documents with at least this many pages have recognisable running headers and footers. */
const minPages = 3;
/** Lines this close to the top or bottom of a page (by position, not stream order) are candidates. */
const edgeLines = 2;
/** A candidate repeated on at least this share of pages is page furniture. */
const repeatShare = 0.5;

/**
 * Removes running headers and footers: lines among the top or bottom two of a page whose text,
 * with numbers ignored ("Page 3 of 17", "7"), repeats at a page edge on at least half of the pages
 * (and at least three). Body text is never touched; short documents come back unchanged.
 */
export function withoutRunningLines(pages: ReadonlyArray<ReadonlyArray<PdfLine>>): PdfLine[][] {
  if (pages.length < minPages) return pages.map((lines) => [...lines]);
  const edgesByPage = pages.map(edgesOf);
  const pagesByKey = new Map<string, number>();
  for (const edges of edgesByPage) {
    for (const key of new Set([...edges].map((line) => keyOf(line.text)))) pagesByKey.set(key, (pagesByKey.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(minPages, Math.ceil(pages.length * repeatShare));
  return pages.map((lines, index) => {
    const edges = edgesByPage[index] as Set<PdfLine>;
    return lines.filter((line) => !edges.has(line) || (pagesByKey.get(keyOf(line.text)) ?? 0) < threshold);
  });
}

function edgesOf(lines: ReadonlyArray<PdfLine>): Set<PdfLine> {
  const byHeight = [...lines].sort((a, b) => b.y - a.y);
  return new Set([...byHeight.slice(0, edgeLines), ...byHeight.slice(-edgeLines)]);
}

function keyOf(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}
