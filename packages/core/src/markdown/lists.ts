import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import type { MarkdownConverter } from './markdown-converter.js';
import type { Separation } from './markdown-writer.js';
import { isSkippedElement } from './skip-rules.js';

const LIST_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'menu', 'dir']);

/** Block children that make a list item "loose" (blank lines between items) when it has two. */
const ITEM_BLOCK_TAGS: ReadonlySet<string> = new Set([
  'p',
  'div',
  'pre',
  'blockquote',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'dl',
  'figure',
  'section',
  'article',
  'header',
  'footer',
  'aside',
  'nav',
  'details',
  'form',
  'fieldset',
  'address',
  'hr',
  'main',
]);

/**
 * `<ul>`, `<ol>`: a list with `-` or `N.` markers (honouring `start` and `value`). Item content is
 * indented by the marker's width, so paragraphs, code and nested lists stay inside the item. An item
 * holding several blocks is loose (blank lines around it and between its blocks); other items are
 * tight (one per line), so one loose item does not spread blank lines through a long menu. A list
 * nested directly in a list (invalid, common) is indented under the previous item.
 */
export function renderList(list: Element, converter: MarkdownConverter): void {
  if (converter.inlineOnly > 0) {
    converter.renderBlock(list);
    return;
  }
  const isOrdered = list.name === 'ol';
  let number = isOrdered ? (parseInteger(list.attribs.start) ?? 1) : 0;

  // An ordered list not starting at 1 cannot interrupt a paragraph: keep a blank line before it.
  converter.openBlock(isOrdered && number !== 1 ? 2 : converter.blockSeparation);
  const writer = converter.writer;
  const outerSeparation = converter.blockSeparation;
  let previousIndent: string | undefined;
  let isPreviousLoose = false;
  for (const child of list.children) {
    if (isTag(child)) {
      if (isSkippedElement(child)) continue;
      if (LIST_TAGS.has(child.name)) {
        if (previousIndent === undefined) {
          converter.walkNode(child);
          continue;
        }
        writer.pushPrefix(previousIndent, previousIndent, false);
        converter.blockSeparation = isPreviousLoose ? 2 : 1;
        converter.walkNode(child);
        converter.blockSeparation = outerSeparation;
        writer.popPrefix();
        continue;
      }
      if (isOrdered) number = parseInteger(child.attribs.value) ?? number;
    } else if (!isText(child) || child.data.trim() === '') {
      continue;
    }
    const marker = isOrdered ? `${number}.` : '-';
    const isLoose = isTag(child) && isLooseItem(child);
    writer.flushParagraph();
    if (previousIndent !== undefined) writer.setSeparation(isLoose || isPreviousLoose ? 2 : 1);
    if (renderItem(child, marker, isLoose ? 2 : 1, converter)) {
      previousIndent = ' '.repeat(marker.length + 1);
      isPreviousLoose = isLoose;
      number++;
    }
  }
  converter.closeBlock(outerSeparation);
}

/** `<li>` outside a list: a bullet item. */
export function renderOrphanItem(item: Element, converter: MarkdownConverter): void {
  if (converter.inlineOnly > 0) {
    converter.renderBlock(item);
    return;
  }
  converter.openBlock();
  renderItem(item, '-', isLooseItem(item) ? 2 : 1, converter);
  converter.closeBlock();
}

/** Renders one item under `marker`; returns whether it produced any line. */
function renderItem(item: AnyNode, marker: string, separation: Separation, converter: MarkdownConverter): boolean {
  const outerSeparation = converter.blockSeparation;
  converter.writer.pushPrefix(marker + ' ', ' '.repeat(marker.length + 1), true);
  converter.blockSeparation = separation;
  if (isTag(item) && item.name === 'li') converter.walkChildren(item);
  else converter.walkNode(item);
  converter.blockSeparation = outerSeparation;
  return converter.writer.popPrefix();
}

/** True when an item holds two or more blocks (a run of inline content counts as one; nested lists do not). */
function isLooseItem(item: Element): boolean {
  let blocks = 0;
  let isInInlineRun = false;
  for (const child of item.children) {
    if (isText(child)) {
      if (!isInInlineRun && child.data.trim() !== '') {
        blocks++;
        isInInlineRun = true;
      }
    } else if (isTag(child)) {
      const name = child.name;
      if (LIST_TAGS.has(name)) {
        isInInlineRun = false;
      } else if (ITEM_BLOCK_TAGS.has(name)) {
        if (!isSkippedElement(child)) blocks++;
        isInInlineRun = false;
      } else if (!isInInlineRun && name !== 'br' && !isSkippedElement(child)) {
        blocks++;
        isInInlineRun = true;
      }
    }
    if (blocks >= 2) return true;
  }
  return false;
}

function parseInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number.parseInt(value, 10);
  return Number.isFinite(number) && number >= 0 && number < 1e9 ? number : undefined;
}
