import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/parse-html.js';
import { cloneTree, collapsedText, firstElement, pruneTree } from './dom-tools.js';
import { isNonContent, stripNonContent } from './page-preparation.js';

const toggle = '<a href="javascript:void(0)" title="collapse all docs">[<span>&#x2212;</span>]</a>';

/** The line's text after each way the extraction leaves non-content out: a copy, a prune, a strip. */
function kept(line: string): string[] {
  const read = () => {
    const document = parseHtml(`<div id="root">${line}</div>`);
    return firstElement(document, (element) => element.attribs.id === 'root')!;
  };
  const original = read();
  const copy = cloneTree(original, { within: original, drop: isNonContent });
  const pruned = read();
  pruneTree(pruned, isNonContent);
  const stripped = read();
  stripNonContent(stripped);
  return [collapsedText(copy), collapsedText(pruned), collapsedText(stripped)];
}

describe('separators beside a control', () => {
  it('drops the separator left at the end of a line by a removed toggle', () => {
    const line = `<span>1.0.0</span> · <a href="src.html">source</a> · ${toggle}`;
    expect(kept(line)).toEqual(['1.0.0 · source', '1.0.0 · source', '1.0.0 · source']);
  });

  it('keeps a separator between a toggle and another item', () => {
    const line = `<a href="src.html">source</a> · ${toggle} · <a href="up.html">up</a>`;
    expect(kept(line)).toEqual(['source · · up', 'source · · up', 'source · · up']);
  });

  it('keeps a separator before a link with words', () => {
    const line = '<a href="src.html">source</a> | <a href="javascript:print()">Print</a>';
    expect(kept(line)).toEqual(['source | Print', 'source | Print', 'source | Print']);
  });
});
