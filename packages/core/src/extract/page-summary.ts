/**
 * The article's own summary (standfirst, lead, "bajada"): the block before the content whose text
 * is the summary the page declares in its head (`description`, `og:description`,
 * `twitter:description`). News and blog templates print that summary under the title, in the
 * title's header, often with a class name that reads like chrome (`teaser`, `intro`, `excerpt`),
 * so the content root leaves it out. The page itself says the block is the article's summary: no
 * word list is needed to bring it back.
 */
import type { Document, Element, ParentNode } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { getAttributeValue } from 'domutils';
import { collapsedText, descendantElements, hasHint } from './dom-tools.js';

const summaryMetaNames: ReadonlySet<string> = new Set(['description', 'og:description', 'twitter:description']);
/** A declared summary shorter than this is a label (a site's tagline), not an article's summary. */
const minimumSummaryLength = 40;
/** A block and a summary match when one starts the other and the shorter is this share of the longer. */
const prefixShare = 0.8;
/** Blocks inside these are never the article's summary (a teaser link, a caption, the title). */
const excludedAncestors: ReadonlySet<string> = new Set(['a', 'figure', 'figcaption', 'caption', 'h1', 'button', 'label']);
/** Class/id names of caption blocks (a photo's caption may repeat the summary). */
const captionHintPattern = /caption|legend|credit/i;

function normalized(text: string): string {
  return text
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .replace(/\s*(?:…|\.\.\.)$/, '');
}

/** The summaries a page declares in its head, normalised, long enough to be an article's. */
export function declaredSummaries(document: Document): string[] {
  const summaries = new Set<string>();
  for (const meta of descendantElements(document, (element) => element.name === 'meta')) {
    const key = (getAttributeValue(meta, 'property') ?? getAttributeValue(meta, 'name') ?? '').toLowerCase();
    const content = getAttributeValue(meta, 'content');
    if (!summaryMetaNames.has(key) || !content) continue;
    const summary = normalized(content);
    if (summary.length >= minimumSummaryLength) summaries.add(summary);
  }
  return [...summaries];
}

function matches(block: string, summary: string): boolean {
  if (block === summary) return true;
  const [shorter, longer] = block.length < summary.length ? [block, summary] : [summary, block];
  return longer.startsWith(shorter) && shorter.length >= prefixShare * longer.length;
}

function isExcluded(element: Element): boolean {
  for (let node: ParentNode | null = element; node && isTag(node); node = node.parent) {
    if (excludedAncestors.has(node.name)) return true;
    if (hasHint(node, captionHintPattern)) return true;
  }
  return false;
}

/**
 * The smallest element under `root` whose text is one of `summaries`, found from the text node that
 * starts it (walking up while the text is not much longer than the summary). A block in a link, a
 * caption or the title is passed over (a teaser of the same story elsewhere on the page).
 */
export function findSummaryBlock(root: ParentNode, summaries: string[]): Element | undefined {
  if (summaries.length === 0) return undefined;
  const longest = Math.max(...summaries.map((summary) => summary.length));
  const stack = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isTag(node)) {
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
      continue;
    }
    if (!isText(node)) continue;
    const start = normalized(node.data);
    if (start.length < 3 || !summaries.some((summary) => summary.startsWith(start))) continue;
    for (let parent = node.parent; parent && isTag(parent); parent = parent.parent) {
      const text = normalized(collapsedText(parent));
      if (text.length > longest / prefixShare) break;
      if (!summaries.some((summary) => matches(text, summary))) continue;
      if (!isExcluded(parent)) return parent;
      break;
    }
  }
  return undefined;
}
