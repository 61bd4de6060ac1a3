/**
 * The article's own summary (standfirst, lead, "bajada"): the block before the content whose text
 * is the summary the page declares in its head (`description`, `og:description`,
 * `twitter:description`). News and blog templates print that summary under the title, in the
 * title's header, often with a class name that reads like chrome (`teaser`, `intro`, `excerpt`),
 * so the content root leaves it out. The page itself says the block is the article's summary: no
 * word list is needed to bring it back.
 */
import type { AnyNode, Document, Element, ParentNode } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { getAttributeValue } from 'domutils';
import { descendantElements, firstElement, firstTextAnswer, hasHint } from './dom-tools.js';

const summaryMetaNames: ReadonlySet<string> = new Set(['description', 'og:description', 'twitter:description']);
/** A declared summary shorter than this is a label (a site's tagline), not an article's summary. */
const minimumSummaryLength = 40;
/** A block and a summary match when one starts the other and the shorter is this share of the longer. */
const prefixShare = 0.8;
/** Blocks inside these are never the article's summary (a teaser link, a caption, the title). */
const excludedAncestors: ReadonlySet<string> = new Set(['a', 'figure', 'figcaption', 'caption', 'h1', 'button', 'label']);
/** Class/id names of caption blocks (a photo's caption may repeat the summary). */
const captionHintPattern = /caption|legend|credit/i;

// Predicates as module functions, not arrows made per call (see `holdsCode` in content-cleanup.ts).
const isHeadOrBody = (element: Element): boolean => element.name === 'head' || element.name === 'body';
const isMeta = (element: Element): boolean => element.name === 'meta';

/** The code of the first character of `text` that is not whitespace, or -1 (no match object per text node). */
function firstVisibleCode(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (!isSpaceCode(code)) return code;
  }
  return -1;
}

function isSpaceCode(code: number): boolean {
  return code === 32 || code === 160 || (code >= 9 && code <= 13);
}

/**
 * The text under `node` (a `br` is a space), or undefined as soon as it holds more than `limit`
 * visible characters: a walk up from a short text node stops at the first large ancestor without
 * reading all of its text.
 */
function textUpTo(node: Element, limit: number): string | undefined {
  const parts: string[] = [];
  let visible = 0;
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (isText(current)) {
      const { data } = current;
      for (let index = 0; index < data.length; index++) if (!isSpaceCode(data.charCodeAt(index)) && ++visible > limit) return undefined;
      parts.push(data);
    } else if (isTag(current)) {
      if (current.name === 'br') parts.push(' ');
      for (let index = current.children.length - 1; index >= 0; index--) stack.push(current.children[index]!);
    }
  }
  return parts.join('');
}

function normalized(text: string): string {
  return text
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .replace(/\s*(?:…|\.\.\.)$/, '');
}

/** The summaries a page declares in its head, normalised, long enough to be an article's. */
export function declaredSummaries(document: Document): string[] {
  const summaries = new Set<string>();
  // The head when there is one: the body's elements are many more, and its metas are microdata.
  const head = firstElement(document, isHeadOrBody);
  const scope = head?.name === 'head' ? head : document;
  for (const meta of descendantElements(scope, isMeta)) {
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
  let longest = 0;
  for (const summary of summaries) longest = Math.max(longest, summary.length);
  // Most text nodes are ruled out by their first character, before any text is normalised.
  const firstCharacters = new Set(summaries.map((summary) => summary.charCodeAt(0)));
  return firstTextAnswer(root, (node) => {
    const first = firstVisibleCode(node.data);
    if (first < 0 || !firstCharacters.has(first)) return undefined;
    const start = normalized(node.data);
    if (start.length < 3 || !summaries.some((summary) => summary.startsWith(start))) return undefined;
    for (let parent = node.parent; parent && isTag(parent); parent = parent.parent) {
      const raw = textUpTo(parent, longest / prefixShare);
      if (raw === undefined) return undefined;
      const text = normalized(raw);
      if (!summaries.some((summary) => matches(text, summary))) continue;
      return isExcluded(parent) ? undefined : parent;
    }
    return undefined;
  });
}
