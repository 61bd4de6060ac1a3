/**
 * The title said twice: a page's `h1` in the article's header, and the same words again as the
 * first heading of the text below it (a gallery's or a body template's `h2`), or as the bold first
 * line of its first paragraph (`<p><strong>Title</strong><br><em>subtitle</em>`). Once the content
 * opens with the title `h1`, a heading or such a leading bold line that repeats its words (case and
 * punctuation aside: "Abrechnung: Musik" and "Abrechnung : Musik") before the text's first prose
 * paragraph is the same line printed twice, not a section of the text, and goes. Seen on news
 * sites and blogs alike (timesunion, faz, ethify); by position and tag alone.
 */
import type { AnyNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { collapsedText, detach, hasOwnText, headingTags } from './dom-tools.js';
import { tokens } from './page-title.js';

/** A block with at least this many characters is the text's prose: nothing after it is read. */
const proseMinimumText = 100;
/** At most this many short blocks (a byline, a date) are read between the title and its repeat. */
const blocksBetweenMaximum = 4;
/** A title of fewer words is too common a line ("Overview", "News") to be read as repeated. */
const titleMinimumWords = 3;

const wordsOf = (text: string): string => tokens(text).join(' ');

const emphasisTags: ReadonlySet<string> = new Set(['strong', 'b']);

const isBlank = (node: AnyNode): boolean => isText(node) && node.data.trim() === '';

/** The leading bold run of a paragraph that a line break ends: `<strong>Title</strong><br>`. */
function leadingBoldLine(block: Element): [Element, Element] | undefined {
  const children = block.children.filter((child) => !isBlank(child));
  const [first, second] = children;
  if (!first || !second || !isTag(first) || !isTag(second)) return undefined;
  return emphasisTags.has(first.name) && second.name === 'br' ? [first, second] : undefined;
}

/**
 * Detaches the repeat of the title `h1` the content opens with (see the module comment); true when
 * it detached one. Reads the content's first blocks only: it stops at the first prose block.
 */
export function dropRepeatedTitle(container: Element): boolean {
  let title: Element | undefined;
  let titleWords = '';
  let blocks = 0;
  let repeat: Element[] | undefined;
  // Document order, the title's own subtree not entered (an ancestor test per element would cost
  // the depth of the tree at each of them).
  const stack: AnyNode[] = [...container.children].reverse();
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (!isTag(element)) continue;
    if (!title) {
      if (element.name === 'h1') {
        title = element;
        titleWords = wordsOf(collapsedText(element));
        if (titleWords.split(' ').length < titleMinimumWords) return false;
        continue;
      }
      // Text before the title: the content does not open with it.
      if (hasOwnText(element) || headingTags.has(element.name)) return false;
    } else {
      if (headingTags.has(element.name)) {
        if (wordsOf(collapsedText(element)) === titleWords) repeat = [element];
        break;
      }
      const bold = leadingBoldLine(element);
      if (bold && wordsOf(collapsedText(bold[0])) === titleWords) {
        repeat = bold;
        break;
      }
      if (hasOwnText(element)) {
        blocks += 1;
        if (blocks > blocksBetweenMaximum || collapsedText(element).length >= proseMinimumText) break;
      }
    }
    for (let index = element.children.length - 1; index >= 0; index--) stack.push(element.children[index]!);
  }
  if (!repeat) return false;
  for (const node of repeat) detach(node);
  return true;
}
