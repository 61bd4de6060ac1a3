/**
 * The title heading that opens the content is kept whatever the block around it reads as. A
 * page's title heading at the top of the chosen content (no heading, little text before it) can
 * stand in a header block that the content cleanup takes as a whole: Javadoc's `overview-tree.html`
 * writes its only `h1` ("Hierarchy For All Packages") in a `div` with the linked names of 250
 * packages, a block of links. The heading named the page before the cleanup read its surroundings,
 * so a copy goes back on top. The same as putting on top a title found before the content
 * (`attachTitle`), for a title found at its start. By position and tags: no class name is read.
 */
import type { AnyNode, Element } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { prependChild } from 'domutils';
import { cloneTree, collapsedText, firstElement, firstTextAnswer, headingTags, isWithin } from './dom-tools.js';

/** Characters of text the title may follow and still open the content (a kicker, a short trail). */
const openingTextLimit = 200;

const isH1 = (element: Element): boolean => element.name === 'h1';

/**
 * True when `title` opens `container`: it is inside, and no other heading and at most
 * `openingTextLimit` characters of text come before it. Reads the content from its start only
 * until it meets the title, a heading or that much text (or every node, on a page without them).
 */
export function opensContent(container: Element, title: Element): boolean {
  let text = 0;
  const stack: AnyNode[] = [];
  for (let index = container.children.length - 1; index >= 0; index--) stack.push(container.children[index]!);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === title) return true;
    if (isText(node)) {
      text += node.data.trim().length;
      if (text > openingTextLimit) return false;
    } else if (isTag(node)) {
      if (headingTags.has(node.name)) return false;
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
  }
  return false;
}

/**
 * Puts a copy of `title` back on top of `container` when it opened the content before the cleanup
 * (`wasOpening`, from `opensContent`) and the cleanup took it, unless the content still holds an
 * `h1` or opens with the title's words in another line (a page that says its title twice keeps the
 * other one). True when it put it back.
 */
export function restoreOpeningTitle(container: Element, title: Element | undefined, wasOpening: boolean): boolean {
  if (!title || !wasOpening || isWithin(title, container)) return false;
  if (firstElement(container, isH1)) return false;
  const text = collapsedText(title);
  if (opensWith(container, text)) return false;
  prependChild(container, cloneTree(title));
  return true;
}

/** True when the collapsed text of `container` starts with `text`: reads its texts only until it can tell. */
function opensWith(container: Element, text: string): boolean {
  let start = '';
  const answer = firstTextAnswer(container, (node) => {
    start = `${start} ${node.data}`.replace(/\s+/g, ' ').trimStart();
    return start.length > text.length ? start.startsWith(text) : undefined;
  });
  return answer ?? start.trimEnd() === text;
}
