import { parseDocument } from 'htmlparser2';
import { textContent } from 'domutils';
import { describe, expect, it } from 'vitest';
import { descendantElements } from './dom-tools.js';
import { titleSection } from './title-section.js';

function sectionOf(html: string): string[] {
  const title = descendantElements(parseDocument(html)).find((element) => element.name === 'h1')!;
  return titleSection(title).map((element) => textContent(element).replace(/\s+/g, ' ').trim());
}

describe('titleSection', () => {
  it("takes a manual page's NAME, which asciidoc writes in #header beside the title", () => {
    const html = `<div id="header"><h1>git-mv(1) Manual Page</h1><h2>NAME</h2>
      <div class="sectionbody"><p>git-mv - Move or rename a file</p></div></div>`;
    expect(sectionOf(html)).toEqual(['NAME', 'git-mv - Move or rename a file']);
  });

  it('takes nothing from a header with more beside the title, or a link row under a heading', () => {
    expect(sectionOf('<header><h1>Title</h1><h2>Menu</h2><ul><li><a href="/a">Home</a></li><li><a href="/b">About us</a></li></ul></header>')).toEqual([]);
    expect(sectionOf('<header><h1>Title</h1><h2>Share</h2><p>By A. Writer</p><div>Tags</div></header>')).toEqual([]);
    expect(sectionOf('<header><h1>Title</h1><p>By A. Writer</p><p>May 2</p></header>')).toEqual([]);
  });
});
