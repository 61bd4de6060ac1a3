import { type Element, type ParentNode, isTag, isText } from 'domhandler';

/** Elements that start a new line inside code (as `code-blocks.ts` reads them). */
const LINE_ELEMENTS: ReadonlySet<string> = new Set(['div', 'p', 'tr', 'li', 'table', 'pre']);

/** A gutter numbers at least this many lines... */
const minimumLines = 3;
/** ...and at least this share of them hold code after their number. */
const minimumCodeLineShare = 0.5;

/** A line number: padded with spaces, never with zeros (`0001-fix.patch` is a file name). */
const numberPattern = /^\s*([1-9]\d{0,5}|0)\s*$/;

interface Line {
  /** The element opening the line whose whole text is a number, if the line opens with one. */
  number?: Element;
  /** Text after the number (or the whole line when it has none). */
  rest: string;
}

/**
 * The line-number gutter written inside a code block, found by its shape rather than its class
 * (`<span class="linenos"> 1</span>`, which a highlighter on an unseen site names otherwise): every
 * line of the block opens with an element of one tag and class holding only a number, the numbers
 * count up by one (padded with spaces, not zeros), at least three lines, most holding code after
 * their number, and nothing else in the block has the gutter's tag and class. Empty when the block has no such gutter
 * (a listing of numbers alone, one per line, is code).
 */
export function lineNumberGutter(pre: Element): ReadonlySet<Element> {
  const lines: Line[] = [{ rest: '' }];
  let atLineStart = true;
  const newLine = (): void => {
    lines.push({ rest: '' });
    atLineStart = true;
  };
  const walk = (parent: ParentNode): void => {
    for (const child of parent.children) {
      if (isText(child)) {
        const parts = child.data.split('\n');
        parts.forEach((part, index) => {
          if (index > 0) newLine();
          if (part.trim() !== '') atLineStart = false;
          lines[lines.length - 1]!.rest += part;
        });
      } else if (isTag(child)) {
        if (LINE_ELEMENTS.has(child.name) && !atLineStart) newLine();
        if (atLineStart && child.children.length > 0 && child.children.every(isText)) {
          const text = child.children.map((node) => (isText(node) ? node.data : '')).join('');
          if (numberPattern.test(text)) {
            lines[lines.length - 1]!.number = child;
            atLineStart = false;
            continue;
          }
        }
        walk(child);
      }
    }
  };
  walk(pre);
  const written = lines.filter((line) => line.number || line.rest.trim() !== '');
  if (written.length < minimumLines) return new Set();
  const first = written[0]!.number;
  if (!first) return new Set();
  let expected = Number(numberPattern.exec(first.children.map((node) => (isText(node) ? node.data : '')).join(''))![1]);
  for (const line of written) {
    const number = line.number;
    if (!number || number.name !== first.name || number.attribs.class !== first.attribs.class) return new Set();
    const value = Number(numberPattern.exec(number.children.map((node) => (isText(node) ? node.data : '')).join(''))![1]);
    if (value !== expected) return new Set();
    expected++;
  }
  const withCode = written.filter((line) => line.rest.trim() !== '').length;
  if (withCode < minimumCodeLineShare * written.length) return new Set();
  const gutter = new Set(written.map((line) => line.number!));
  // The gutter's tag and class mark nothing else in the block: a highlighter's number token (`mi`) marks numbers in the code too.
  return hasOtherOfKind(pre, first, gutter) ? new Set() : gutter;
}

function hasOtherOfKind(parent: ParentNode, kind: Element, gutter: ReadonlySet<Element>): boolean {
  for (const child of parent.children) {
    if (!isTag(child)) continue;
    if (child.name === kind.name && child.attribs.class === kind.attribs.class && !gutter.has(child)) return true;
    if (hasOtherOfKind(child, kind, gutter)) return true;
  }
  return false;
}
