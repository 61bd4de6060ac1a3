import { describe, expect, it } from 'vitest';
import { isTag, type AnyNode } from 'domhandler';
import { transformHtml } from '../scrape/transform-html.js';
import { maxTreeDepth, parseHtml } from './parse-html.js';

function depthOf(root: AnyNode): number {
  let deepest = 0;
  const stack: Array<[AnyNode, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if ('children' in node) for (const child of node.children) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A broken page: thousands of unclosed `<div>`s, each with a paragraph. */
const unclosed = (count: number) => `<html><head><title>Deep</title></head><body>${'<div><p>Paragraph text.</p>'.repeat(count)}</body></html>`;

describe('parseHtml depth limit', () => {
  it('keeps ordinary pages as they are', () => {
    const document = parseHtml('<main><section><p>One <b>two</b></p></section></main>');
    expect(depthOf(document)).toBe(5);
  });

  it('flattens nesting beyond the limit, keeping every paragraph whole and in order', () => {
    const document = parseHtml(unclosed(5_000));
    expect(depthOf(document)).toBeLessThanOrEqual(maxTreeDepth + 34);
    const paragraphs: string[] = [];
    const stack: AnyNode[] = [document];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (isTag(node) && node.name === 'p') paragraphs.push((node.children[0] as { data: string }).data);
      if ('children' in node) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
    expect(paragraphs).toHaveLength(5_000);
  });

  it('lets every format of such a page be made without overflowing the stack', () => {
    const output = transformHtml({
      html: unclosed(12_000),
      url: 'https://example.com/deep',
      onlyMainContent: true,
      includeTags: [],
      excludeTags: [],
      removeBase64Images: true,
      want: { markdown: true, html: true, links: true, images: false, signals: true },
    });
    expect(output.markdown!.match(/Paragraph text\./g)).toHaveLength(12_000);
    expect(output.signals!.textLength).toBeGreaterThanOrEqual(12_000 * 15);
  });
});
