import { describe, expect, it } from 'vitest';
import type { Element } from 'domhandler';
import { parseHtml } from '../html/parse-html.js';
import { descendantElements, forgetHintNames, hintText } from './dom-tools.js';

/** What `hintText` gave before it remembered class strings: class and id joined, then lower-cased. */
function joinedHint(element: Element): string {
  const names = element.attribs.class?.replace(/\[[^\]\s]*\]/g, '');
  const id = element.attribs.id;
  return names === undefined && id === undefined ? '' : `${names ?? ''} ${id ?? ''}`.toLowerCase();
}

describe('hintText', () => {
  it('lower-cases class and id as one joined string would, the same for a repeated class', () => {
    const html =
      '<div class="Sidebar NAV"></div><div class="Sidebar NAV" id="Menu"></div><span id="TOP"></span>' +
      '<p class="ΟΔΟΣ" id="ΣΑΣ"></p><p class="" id="X"></p><i class="grid-cols-[var(--W)_1fr] Main"></i><b></b>';
    const elements = descendantElements(parseHtml(html)).filter((element) => element.name !== 'html' && element.name !== 'head' && element.name !== 'body');
    expect(elements).toHaveLength(7);
    for (const element of [...elements, ...elements]) expect(hintText(element)).toBe(joinedHint(element));
    forgetHintNames();
    expect(hintText(elements[0]!)).toBe('sidebar nav ');
    expect(hintText(elements[3]!)).toBe('οδος σας');
  });

  it('leaves out an id that is a documented object or the section title', () => {
    const [dt, section] = descendantElements(parseHtml('<dt class="Sig" id="os.path.join"></dt><section id="intro"><h2>Intro</h2></section>')).filter(
      (element) => element.name === 'dt' || element.name === 'section',
    );
    expect(hintText(dt!)).toBe('sig ');
    expect(hintText(section!)).toBe('');
  });
});
