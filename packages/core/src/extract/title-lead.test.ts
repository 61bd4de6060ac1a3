import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { descendantElements } from './dom-tools.js';
import { titleLead } from './title-lead.js';

const lead = 'Cheap and easy costumes are all that matter this year, and each of these ideas takes an evening at most.';

/** The lead between the `h1` and the element with id `content`, as text. */
function leadOf(html: string): string[] {
  const document = parseDocument(html);
  const order = descendantElements(document);
  const title = order.find((element) => element.name === 'h1')!;
  const content = order.find((element) => element.attribs.id === 'content')!;
  return titleLead(order, order.indexOf(title), order.indexOf(content), document).map((element) => textContent(element).trim());
}

describe('titleLead', () => {
  it('takes a prose paragraph in its own wrapper between the title and the content', () => {
    expect(leadOf(`<header><h1>Title</h1></header><div><div><p>${lead}</p></div></div><div id="content"><p>Text.</p></div>`)).toEqual([lead]);
  });

  it("leaves a byline, a picture's description and a deck in the title's own block", () => {
    const caption = 'A group of friends in home-made costumes, photographed at a party in the garden last year.';
    expect(leadOf(`<div><h1>Title</h1><p>${lead}</p></div><div id="content"><p>Text.</p></div>`)).toEqual([]);
    expect(leadOf(`<h1>Title</h1><p>By <a href="/a">A. Writer</a>, May 2.</p><div><img src="a.jpg"><p>${caption}</p></div><div id="content"></div>`)).toEqual(
      [],
    );
  });

  it('takes nothing from a list, a navigation box or a paragraph after the content starts', () => {
    expect(leadOf(`<h1>Title</h1><nav><p>${lead}</p></nav><ul><li><p>${lead}</p></li></ul><div id="content"><p>${lead}</p></div>`)).toEqual([]);
  });
});
