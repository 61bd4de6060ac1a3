import { describe, expect, it } from 'vitest';
import { isTag, type Element } from 'domhandler';
import { parseHtml } from '../html/parse-html.js';
import { detachAll, detachUnsettled, settleDetached } from './dom-tools.js';

describe('detachAll', () => {
  it('removes many siblings in one pass and relinks the ones left', () => {
    const document = parseHtml(`<ul>${Array.from({ length: 10 }, (_, index) => `<li>${index}</li>`).join('')}</ul><p>after</p>`);
    const list = document.children.find((node): node is Element => isTag(node) && node.name === 'ul')!;
    const items = list.children.filter(isTag);
    detachAll(items.filter((_, index) => index % 2 === 0));
    detachAll([]);
    const left = list.children.filter(isTag);
    expect(left.map((item) => (item.children[0] as { data: string }).data)).toEqual(['1', '3', '5', '7', '9']);
    left.forEach((item, index) => {
      expect(item.parent).toBe(list);
      expect(item.prev).toBe(left[index - 1] ?? null);
      expect(item.next).toBe(left[index + 1] ?? null);
    });
    expect(items[0]!.parent).toBeNull();
    expect(items[0]!.next).toBeNull();
  });

  it('detaches nodes of different parents, and a single node the plain way', () => {
    const document = parseHtml('<div><b>1</b><i>2</i></div><section><em>3</em></section>');
    const [div, section] = document.children.filter(isTag);
    detachAll([div!.children[0]!, section!.children[0]!]);
    expect(div!.children.map((node) => (node as Element).name)).toEqual(['i']);
    expect(div!.children[0]!.prev).toBeNull();
    expect(section!.children).toEqual([]);
  });
});

describe('detachUnsettled', () => {
  it('cuts the links at once, leaves the children array to settleDetached, and keeps the array', () => {
    const document = parseHtml(`<ul>${Array.from({ length: 6 }, (_, index) => `<li>${index}</li>`).join('')}</ul>`);
    const list = document.children.find((node): node is Element => isTag(node) && node.name === 'ul')!;
    const children = list.children;
    const items = children.filter(isTag);
    const unsettled = new Set<Element>();
    for (const index of [5, 3, 2]) detachUnsettled(items[index]!, unsettled);
    detachUnsettled(items[3]!, unsettled);
    expect(items[1]!.next).toBe(items[4]);
    expect(items[4]!.prev).toBe(items[1]);
    expect(items[4]!.next).toBeNull();
    expect(items[3]!.parent).toBeNull();
    expect(list.children).toHaveLength(6);
    settleDetached(unsettled);
    expect(list.children).toBe(children);
    expect(list.children).toEqual([items[0], items[1], items[4]]);
    expect(unsettled.size).toBe(0);
  });
});
