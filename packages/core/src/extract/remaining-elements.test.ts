import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/parse-html.js';
import { descendantElements, detach, remainingElements } from './dom-tools.js';

describe('remainingElements', () => {
  it('gives what a second walk gives after detaching nested and sibling subtrees', () => {
    const document = parseHtml(
      '<div id="a"><nav id="b"><ul id="c"><li id="d"><a id="e">x</a></li></ul></nav><p id="f"><span id="g">y</span></p></div>' +
        '<aside id="h"><p id="i">z</p></aside><footer id="j"></footer><p id="k">w</p>',
    );
    const before = descendantElements(document);
    const byId = new Map(before.map((element) => [element.attribs.id, element]));
    const detached = ['b', 'g', 'h', 'j'].map((id) => byId.get(id)!);
    for (const element of detached) detach(element);
    const remaining = remainingElements(before, detached);
    expect(remaining).toEqual(descendantElements(document));
    expect(remaining.map((element) => element.attribs.id)).toEqual(['a', 'f', 'k']);
  });

  it('gives a copy of the list when nothing was detached', () => {
    const before = descendantElements(parseHtml('<div><p>text</p></div>'));
    const remaining = remainingElements(before, []);
    expect(remaining).toEqual(before);
    expect(remaining).not.toBe(before);
  });
});
