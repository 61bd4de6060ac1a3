/**
 * The first pass over the working copy: drop what a reader never sees as text. Scripts, styles,
 * form controls, embeds, comments, and elements hidden by the `hidden` attribute, `aria-hidden`,
 * inline `display:none`/`visibility:hidden`, or screen-reader-only classes. A tab panel hidden by
 * the `hidden` attribute stays: it is the page's content behind a tab not yet selected (a docs
 * page's "DataFrame / Array / Bag" examples), not text the page hides from its reader. What the
 * page's own `<style>` rules hide needs the whole page, not one element: `page-styles.ts`, applied
 * with this where a pass copies the body (`copyBody` in `main-content.ts`).
 */
import { type AnyNode, type Element, type ParentNode, isTag, isText } from 'domhandler';
import { nonContentTags } from './boilerplate-patterns.js';
import { isControlLabel, isControlSeparator } from './control-labels.js';
import { detach } from './dom-tools.js';

const hiddenStylePattern = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
const hiddenClassTokens: ReadonlySet<string> = new Set([
  'sr-only',
  'screen-reader-text',
  'screen-reader-only',
  'visually-hidden',
  'visuallyhidden',
  'element-invisible',
  'offscreen',
  'a11y-hidden',
  'u-visually-hidden',
  'show-for-sr',
  'assistive-text',
]);
/**
 * One of `hiddenClassTokens` as a whole class token, any case: the same answer as splitting the
 * class at whitespace and looking each lower-cased token up, without the array and the strings
 * (the copy asks it of every element of the body, on every extraction pass).
 */
const hiddenClassPattern = new RegExp(`(?:^|\\s)(?:${[...hiddenClassTokens].join('|')})(?=\\s|$)`, 'i');

export function isHidden(element: Element): boolean {
  const { attribs } = element;
  if ('hidden' in attribs) return attribs.role !== 'tabpanel';
  if (attribs['aria-hidden'] === 'true' && !attribs.class?.includes('fallback-image')) return true;
  if (attribs.style && hiddenStylePattern.test(attribs.style)) return true;
  if (attribs.type === 'hidden') return true;
  return attribs.class ? hiddenClassPattern.test(attribs.class) : false;
}

/** True for a node `stripNonContent` removes (with its subtree). */
export function isNonContent(node: AnyNode): boolean {
  if (isTag(node)) return nonContentTags.has(node.name) || isHidden(node) || isControlLabel(node);
  // A separator left at a line's edge by a control the copy leaves out.
  if (isText(node)) return isControlSeparator(node);
  return true; // comments, doctype, CDATA, processing instructions
}

/** Removes non-content nodes from `root` in place (`cloneTree` can leave them out instead). */
export function stripNonContent(root: ParentNode): void {
  // Detached after the walk: a node is judged by its siblings as the page has them (a separator
  // before a control, `isControlSeparator`), as the copy that leaves them out judges it.
  const dropped: AnyNode[] = [];
  const stack: AnyNode[] = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isNonContent(node)) dropped.push(node);
    else if (isTag(node)) for (const child of node.children) stack.push(child);
  }
  for (const node of dropped) detach(node);
}
