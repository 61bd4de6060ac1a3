import { parseDocument } from 'htmlparser2';
import { textContent } from 'domutils';
import { describe, expect, it } from 'vitest';
import { elementOf } from './dom-tools.js';
import { removeEdgeNavigation } from './edge-navigation.js';

function keptOf(html: string): string {
  const page = elementOf('div', [...parseDocument(html).children]);
  removeEdgeNavigation(page);
  return page.children
    .map((child) => textContent(child))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const header =
  '<div><table><tr><th>Chapter 2</th></tr><tr><td><a accesskey="p" href="a.html">Prev</a></td><td><a accesskey="n" href="b.html">Next</a></td></tr></table><hr></div>';
const footer = '<hr><table><tr><td><a accesskey="u" href="c.html">Up</a></td><td>1.4. Accessing</td></tr></table>';

describe('removeEdgeNavigation', () => {
  it("takes DocBook's navheader and navfooter, links by access keys at the page's edges", () => {
    expect(keptOf(`${header}<div><h2>Chapter 2</h2> <p>Text</p></div>${footer}`)).toBe('Chapter 2 Text');
  });

  it('keeps a block with a link without an access key, a paragraph, or the only block', () => {
    expect(keptOf(`<div><a accesskey="p" href="a.html">Prev</a> <a href="b.html">Blog</a></div><p>Text</p>`)).toBe('Prev Blog Text');
    expect(keptOf(`<p><a accesskey="p" href="a.html">Prev</a> and a sentence</p><div>Text</div>`)).toBe('Prev and a sentence Text');
    expect(keptOf(header)).toBe('Chapter 2PrevNext');
  });
});
