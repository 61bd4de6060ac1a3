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
 * Or lines of any shape followed by hover cards of their links (`readsAsCode`). What follows the run
 * (Doxygen's hover tooltips) is not part of it.
 */
export function lineCodeRun(element: Element): Element[] | undefined {
  const run = lineRun(element);
  return run !== undefined && readsAsCode(element, run) ? run.lines : undefined;
}

interface LineRun {
  lines: Element[];
  /** A line is indented by at least `minimumIndent` ordinary spaces or tabs. */
  isIndented: boolean;
  /** A line with text starts at its first column. */
  isFlush: boolean;
}

/**
 * A run reads as code when its lines are indented unevenly, or when hover cards of its links follow
 * it (`isHoverCard`: a script shows the declaration of each linked name, which only code carries).
 */
function readsAsCode(element: Element, run: LineRun): boolean {
  if (run.lines.length >= minimumLines && run.isIndented && run.isFlush) return true;
  const last = element.children.indexOf(run.lines[run.lines.length - 1]!);
  if (last === element.children.length - 1) return false;
  const links = linkTargets(run.lines);
  if (links.size === 0) return false;
  for (let index = last + 1; index < element.children.length; index++) {
    const child = element.children[index]!;
    if (isTag(child) && isHoverCard(child, links)) return true;
  }
  return false;
}

/** The run of divisions of one line of inline text a `<div>` opens with (at least one), else undefined. */
function lineRun(element: Element): LineRun | undefined {
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
  return lines.length > 0 ? { lines, isIndented, isFlush } : undefined;
}

/**
 * The classes of a run's container and of its lines, when the container has one and every line the
 * same one, else undefined: what a template writes every code block of a page with, one-line and
 * flush blocks included, which alone do not show they are code (`wrapLineCode`).
 */
function runSignature(element: Element, lines: readonly Element[]): string | undefined {
  const container = element.attribs.class ?? '';
  const line = lines[0]!.attribs.class ?? '';
  if (container.trim() === '' || line.trim() === '') return undefined;
  return lines.every((each) => each.attribs.class === line) ? `${container}\u0000${line}` : undefined;
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
 * and a line that is mostly a link would read as a link block). So is every other run written in
 * the same classes of container and lines as one that reads as code (`readsAsCode`, `runSignature`): a page's
 * template writes all its code blocks alike, and a block of one line, or of lines that all start
 * flush, shows no indentation of its own. The hover cards after a run go (`isHoverCard`). One walk;
 * a `pre` is not entered.
 */
export function wrapLineCode(root: ParentNode): void {
  const stack: Element[] = [];
  for (let index = root.children.length - 1; index >= 0; index--) {
    const child = root.children[index]!;
    if (isTag(child)) stack.push(child);
  }
  const proven = new Set<string>();
  const pending: [Element, Element[], string][] = [];
  while (stack.length > 0) {
    const element = stack.pop()!;
    if (element.name === 'pre') continue;
    const run = element.name === 'div' ? lineRun(element) : undefined;
    if (run !== undefined) {
      const signature = runSignature(element, run.lines);
      if (readsAsCode(element, run)) {
        if (signature !== undefined) proven.add(signature);
        replaceWithPre(element, run.lines);
      } else if (signature !== undefined) {
        pending.push([element, run.lines, signature]);
      }
    }
    for (let index = element.children.length - 1; index >= 0; index--) {
      const child = element.children[index]!;
      if (isTag(child)) stack.push(child);
    }
  }
  for (const [element, lines, signature] of pending) if (proven.has(signature)) replaceWithPre(element, lines);
}

/**
 * A division after a run of code lines, in the run's container, that opens with a link to where a
 * link of the code goes: the hover card of that link, which a script shows on pointing at it and a
 * stylesheet hides otherwise (Doxygen's `div.ttc`: the name, the declaration and "Definition:
 * Matrix.h:180" of each linked symbol, one after the other below the code). `codeLinks` are the
 * code's link targets.
 */
export function isHoverCard(element: Element, codeLinks: ReadonlySet<string>): boolean {
  if (element.name !== 'div') return false;
  // The card's first block names the thing: a division opening with the link (a cell of a table
  // written in divisions opens with inline code holding a link, and is no card).
  const name = firstContent(element);
  if (name === undefined || !isTag(name) || name.name !== 'div') return false;
  let node: AnyNode | undefined = name;
  while (node !== undefined && isTag(node)) {
    if (node.name === 'a') return node.attribs.href !== undefined && codeLinks.has(node.attribs.href);
    node = firstContent(node);
  }
  return false;
}

/** The first child of `element` that is not blank text. */
function firstContent(element: Element): AnyNode | undefined {
  return element.children.find((child) => !isText(child) || child.data.trim() !== '');
}

/** The link targets under `nodes`. */
export function linkTargets(nodes: readonly AnyNode[]): Set<string> {
  const targets = new Set<string>();
  const stack: AnyNode[] = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === 'a' && node.attribs.href !== undefined) targets.add(node.attribs.href);
    for (const child of node.children) stack.push(child);
  }
  return targets;
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
  dropHoverCards(parent, pre);
}

/** The hover cards (`isHoverCard`) after `pre`, the code a run of lines became, taken out of `parent`. */
function dropHoverCards(parent: Element, pre: Element): void {
  const start = parent.children.indexOf(pre) + 1;
  if (start >= parent.children.length) return;
  const links = linkTargets(pre.children);
  if (links.size === 0) return;
  const kept = parent.children.slice(0, start);
  for (const child of parent.children.slice(start)) {
    if (isTag(child) && isHoverCard(child, links)) {
      child.parent = null;
      continue;
    }
    kept.push(child);
  }
  if (kept.length === parent.children.length) return;
  parent.children = kept;
  for (const [index, node] of kept.entries()) {
    node.prev = kept[index - 1] ?? null;
    node.next = kept[index + 1] ?? null;
  }
}
