import { parseDocument } from 'htmlparser2';
import { isTag } from 'domhandler';
import { findOne, textContent } from 'domutils';
import { describe, expect, it } from 'vitest';
import { declaredTitles, findTitleHeading, opensWithOwnTitle } from './page-title.js';

function titleOf(html: string): string | undefined {
  const document = parseDocument(html);
  const heading = findTitleHeading(document, declaredTitles(document));
  return heading && textContent(heading);
}

describe('findTitleHeading', () => {
  it('prefers the article h1 over a logo h1 with the site name', () => {
    const html = `<html><head><title>Quiet rivers of the north | River Times</title></head><body>
      <h1 class="logo"><a href="/">River Times</a></h1><main><h1>Quiet rivers of the north</h1></main></body></html>`;
    expect(titleOf(html)).toBe('Quiet rivers of the north');
  });

  it('uses og:title and falls back to a lone h1', () => {
    expect(titleOf('<head><meta property="og:title" content="Alpha beta"></head><h1>Other</h1><h1>Alpha beta</h1>')).toBe('Alpha beta');
    expect(titleOf('<head><title>Home</title></head><h1>A heading that stands alone</h1>')).toBe('A heading that stands alone');
    expect(titleOf('<head><title>Home</title></head><h1>One heading here</h1><h1>Two</h1>')).toBeUndefined();
  });

  it('takes a heading of the highest level when the page has no h1, only when its words match', () => {
    const node =
      '<head><title>Light Properties (GNU Octave (version 7.3.0))</title></head><div><p>Next: Uimenu Properties</p><h4>15.3.3.11 Light Properties</h4><h5>Other</h5></div>';
    expect(titleOf(node)).toBe('15.3.3.11 Light Properties');
    expect(titleOf('<head><title>Home</title></head><h2>A heading that stands alone</h2>')).toBeUndefined();
  });

  it('takes the one block of plain text that says the title when the page has no h1', () => {
    // Doxygen: `div.header > div.headertitle > div.title`, the jump links beside it.
    const doxygen =
      '<head><title>SDL: SDL_Locale Struct Reference</title></head><div class="header"><div class="summary"><a href="#pub-attribs">Data Fields</a></div>' +
      '<div class="headertitle"><div class="title">SDL_Locale Struct Reference</div></div></div><div class="contents"><h2>Data Fields</h2></div>';
    expect(titleOf(doxygen)).toBe('SDL_Locale Struct Reference');
    // Over a member's heading that says a few of the title's words (Doxygen's `h2.memtitle` "SDL_config_h_").
    const members =
      '<head><title>SDL: SDL_config_android.h File Reference</title></head><div class="header"><div class="headertitle"><div class="title">SDL_config_android.h File Reference</div></div></div>' +
      '<div class="contents"><h2>Macros</h2><h2>HAVE_ABS</h2><h2>SDL_config_h_</h2></div>';
    expect(titleOf(members)).toBe('SDL_config_android.h File Reference');
    // Not a link (a breadcrumb's last item), not a block holding others, not one of two.
    expect(titleOf('<head><title>Quiet rivers</title></head><div><a href="/r">Quiet rivers</a></div><h2>Other</h2>')).toBeUndefined();
    expect(titleOf('<head><title>Quiet rivers north</title></head><div>Quiet rivers <div>north</div></div>')).toBeUndefined();
    expect(titleOf('<head><title>Quiet rivers</title></head><div>Quiet rivers</div><p>Quiet rivers</p>')).toBeUndefined();
    // Words the title does not have, or too few of its words.
    expect(titleOf('<head><title>Quiet rivers</title></head><div>Quiet rivers of the north</div>')).toBeUndefined();
    expect(titleOf('<head><title>Quiet rivers of the north and south</title></head><div>Rivers</div>')).toBeUndefined();
    // A page with an h1 is titled by it or by none.
    expect(titleOf('<head><title>Quiet rivers</title></head><h1>Home</h1><h1>Other</h1><div>Quiet rivers</div>')).toBeUndefined();
  });
});

describe('opensWithOwnTitle', () => {
  function opensWithOwn(title: string, outside: string, content: string): boolean {
    const document = parseDocument(`<head><title>${title}</title></head><body>${outside}${content}</body>`);
    const titles = declaredTitles(document);
    const body = findOne((element) => element.name === 'body', document.children)!;
    const root = body.children.filter(isTag).at(-1)!;
    const heading = findOne((element) => element.name === 'h1', body.children)!;
    return opensWithOwnTitle(root, heading, titles);
  }

  it('reads a heading before the content that names the trailing part of the title as the site name', () => {
    const menuBar = '<div id="menu-bar"><button>Toggle</button><h1 class="menu-title">The Rust Programming Language</h1><a href="print.html">Print</a></div>';
    const chapter = '<main><h2>Data Types</h2><p>Every value in Rust is of a certain data type.</p></main>';
    expect(opensWithOwn('Data Types - The Rust Programming Language', menuBar, chapter)).toBe(true);
  });

  it('keeps a heading that names the leading part, and reads no part of a title with one part', () => {
    // The page's h1 in its header ("What we do"), its body opening with a section naming the site.
    const header = '<header><h1>What we do</h1></header>';
    const body = '<div><h2>What is Creative Commons?</h2><p>Creative Commons helps you share.</p></div>';
    expect(opensWithOwn('What we do - Creative Commons', header, body)).toBe(false);
    // "Site | Page": which part is the page's is not known.
    expect(opensWithOwn('Creative Commons | What we do', '<h1>Creative Commons</h1>', body.replace('What is Creative Commons?', 'What we do'))).toBe(false);
    expect(opensWithOwn('Data Types', '<h1>The Rust Programming Language</h1>', '<main><h2>Data Types</h2><p>Text.</p></main>')).toBe(false);
  });

  it('needs the content to open with its heading', () => {
    const body = '<main><p>A lead before it.</p><h2>Data Types</h2></main>';
    expect(opensWithOwn('Data Types - The Rust Programming Language', '<h1>The Rust Programming Language</h1>', body)).toBe(false);
  });
});
