import { afterEach, describe, expect, it } from 'vitest';
import { parseHtml } from '../html/parse-html.js';
import { descendantElements, detach, detachAll, detachedCount, shareElements, sharedElements } from './dom-tools.js';

describe('sharedElements', () => {
  afterEach(() => shareElements(undefined));

  it('hands out one walk of the shared root until a node is detached, then walks again', () => {
    const document = parseHtml('<div id="a"><p id="b">x</p><ul id="c"><li id="d">y</li></ul><p id="e">z</p></div>');
    shareElements(document);
    const first = sharedElements(document);
    expect(sharedElements(document)).toBe(first);
    const byId = new Map(first.map((element) => [element.attribs.id, element]));
    detach(byId.get('c')!);
    const second = sharedElements(document);
    expect(second).not.toBe(first);
    expect(second).toEqual(descendantElements(document));
    expect(second.map((element) => element.attribs.id)).toEqual(['a', 'b', 'e']);
    detachAll([byId.get('b')!, byId.get('e')!]);
    expect(sharedElements(document).map((element) => element.attribs.id)).toEqual(['a']);
  });

  it('walks afresh for another root, and for every root once sharing ends', () => {
    const document = parseHtml('<div><p>x</p></div>');
    shareElements(document);
    const inner = descendantElements(document)[0]!;
    expect(sharedElements(inner)).not.toBe(sharedElements(inner));
    shareElements(undefined);
    expect(sharedElements(document)).not.toBe(sharedElements(document));
    expect(sharedElements(document)).toEqual(descendantElements(document));
  });

  it('counts detached nodes, not calls on nodes already out of the tree', () => {
    const document = parseHtml('<p>a</p><p>b</p><p>c</p>');
    const [first, second, third] = descendantElements(document);
    const before = detachedCount();
    detach(first!);
    detach(first!);
    detachAll([second!, third!]);
    expect(detachedCount() - before).toBe(3);
  });
});
