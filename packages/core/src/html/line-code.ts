import { type AnyNode, Element, isTag, isText, type ParentNode, Text } from 'domhandler';

/** Elements that end a line of text: a division holding one is not one line of code. */
const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]);

/** A run of line divisions is code when at least this many lines are written... */
const minimumLines = 2;
/** ...and a line is indented by at least this many spaces or tabs: a browser collapses them unless the block keeps whitespace. */
const minimumIndent = 2;

/**
 * The run of line divisions a `<div>` opens with when they read as code, else undefined: each holds
 * one line of inline text (no newline, no block inside), at least two, some indented by spaces and
 * some not. The shape of code written one `<div>` per line, with `white-space: pre` set by a linked
 * stylesheet (Doxygen's `div.fragment > div.line`, CodeMirror 6's `.cm-line`, Ace's `.ace_line`):
 * indentation that varies from line to line is what a layout of divisions never writes, since it
 * would not show. A line number opening a line (an element of digits only) is not its indentation.
 * What follows the run (Doxygen's hover tooltips) is not part of it.
 */
export function lineCodeRun(element: Element): Element[] | undefined {
  const lines: Element[] = [];
  let isIndented = false;
  let isFlush = false;
  for (const child of element.children) {
    if (isText(child)) {
      if (child.data.trim() !== '') return undefined;
      continue;
    }
    if (!isTag(child)) continue;
    if (child.name !== 'div') break;
    const text = lineText(child);
    if (text === undefined) break;
    lines.push(child);
    const start = text.search(/[^ \t\u00a0]/);
    if (start < 0) continue;
    const indent = text.slice(0, start);
    if (indent === '') isFlush = true;
    else if (indent.length >= minimumIndent && !indent.includes('\u00a0')) isIndented = true;
  }
  return lines.length >= minimumLines && isIndented && isFlush ? lines : undefined;
}

/**
 * The text of a division that holds one line of inline content, less a leading line number (an
 * element holding only digits), or undefined when it holds a block or a newline.
 */
function lineText(line: Element): string | undefined {
  let text = '';
  let isLineStart = true;
  const stack: AnyNode[] = [...line.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (isText(node)) {
      if (node.data.includes('\n')) return undefined;
      text += node.data;
      if (node.data.trim() !== '') isLineStart = false;
    } else if (isTag(node)) {
      if (BLOCK_ELEMENTS.has(node.name)) return undefined;
      if (isLineStart && isLineNumber(node)) {
        isLineStart = false;
        continue;
      }
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
  }
  return text;
}

/** An element holding only a number, as a line-number gutter writes it at the start of a line. */
function isLineNumber(element: Element): boolean {
  return element.children.length > 0 && element.children.every((child) => isText(child) && /^\s*\d+\s*$/.test(child.data));
}

/**
 * Each run of line divisions that reads as code (`lineCodeRun`) under `root` made a `<pre>` where
 * the run stood, holding the lines' content with a newline between lines: the extraction then keeps
 * it as it keeps code (a blank line is a division holding a space, which the cleanup would take,
 * and a line that is mostly a link would read as a link block). One walk; a `pre` is not entered.
 */
export function wrapLineCode(root: ParentNode): void {
  const stack: Element[] = [];
  for (let index = root.children.length - 1; index >= 0; index--) {
    const child = root.children[index]!;
    if (isTag(child)) stack.push(child);
  }
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.name === 'pre') continue;
    const run = element.name === 'div' ? lineCodeRun(element) : undefined;
    if (run) replaceWithPre(element, run);
    for (let index = element.children.length - 1; index >= 0; index--) {
      const child = element.children[index]!;
      if (isTag(child)) stack.push(child);
    }
  }
}

/** `run` (children of `parent`, in order, with only whitespace between) replaced by one `<pre>` of their content. */
function replaceWithPre(parent: Element, run: readonly Element[]): void {
  const content: AnyNode[] = [];
  for (const [index, line] of run.entries()) {
    if (index > 0) content.push(new Text('\n'));
    for (const child of line.children) content.push(child);
  }
  const pre = new Element('pre', {}, content);
  for (const [index, node] of content.entries()) {
    node.parent = pre;
    node.prev = content[index - 1] ?? null;
    node.next = content[index + 1] ?? null;
  }
  const first = parent.children.indexOf(run[0]!);
  const last = parent.children.indexOf(run[run.length - 1]!);
  parent.children.splice(first, last - first + 1, pre);
  pre.parent = parent;
  pre.prev = parent.children[first - 1] ?? null;
  pre.next = parent.children[first + 1] ?? null;
  if (pre.prev) pre.prev.next = pre;
  if (pre.next) pre.next.prev = pre;
}
