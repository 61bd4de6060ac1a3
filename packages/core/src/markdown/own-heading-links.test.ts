import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './index.js';

const markdownOf = (html: string): string => htmlToMarkdown(parseDocument(html).children, { baseUrl: 'https://docs.example.com/' });

describe('heading permalinks known by where they point', () => {
  it('drops a link to the heading’s own id inside it or right after it, whatever its class and text', () => {
    expect(markdownOf('<h2 id="setup" class="u1">Setup<a href="#setup" class="u2">\u200b</a></h2>')).toBe('## Setup');
    expect(
      markdownOf(
        '<div class="u3"><h2 id="install">Install</h2><a class="u4" href="#install"><span class="u5">Section titled “Install”</span></a></div><p>Run it.</p>',
      ),
    ).toBe('## Install\n\nRun it.');
  });

  it('keeps a heading that is its own link, and links to other places', () => {
    expect(markdownOf('<h2 id="usage"><a href="#usage">Usage</a></h2>')).toBe('## Usage');
    expect(markdownOf('<h2 id="api">API</h2><p><a href="#usage">see usage</a></p>')).toBe('## API\n\n[see usage](https://docs.example.com/#usage)');
  });
});

describe('controls written into a heading as a bracketed word', () => {
  it('drops a trailing `[src]` link when the heading has words besides it', () => {
    expect(markdownOf('<h4 id="d">Description <a class="u1" href="https://gitlab.example/a.c#L19">[src]</a></h4>')).toBe('#### Description');
  });

  it('keeps a bracketed type, a bracketed number and a heading that is only the link', () => {
    expect(markdownOf('<h3>impl Deref for <a href="/primitive.slice.html">[T]</a></h3>')).toBe(
      '### impl Deref for [\\[T\\]](https://docs.example.com/primitive.slice.html)',
    );
    expect(markdownOf('<h2>Results <a href="/notes#1">[1]</a></h2>')).toBe('## Results [\\[1\\]](https://docs.example.com/notes#1)');
    expect(markdownOf('<h2><a href="/src">[src]</a></h2>')).toBe('## [\\[src\\]](https://docs.example.com/src)');
  });
});

describe('controls written before a heading as one lowercase word', () => {
  it('drops a one-word link to another page in an inline wrapper before the heading, past empty anchors', () => {
    expect(
      markdownOf(
        '<section class="u1"><span class="u2"><span class="u3">1.0.0</span> · <a class="u4" href="/src/clone.rs.html#133">source</a></span><a href="#m" class="u5"></a><h4>fn clone_from(&amp;mut self)</h4></section>',
      ),
    ).toBe('1.0.0 ·\n\n#### fn clone_from(&mut self)');
  });

  it('keeps a link after a heading, a link in a line of words, a link within the page and a link of several words', () => {
    expect(markdownOf('<div class="u1"><h2>See Also</h2><span class="u2"><a href="/amcheck.html">amcheck</a></span></div>')).toBe(
      '## See Also\n\n[amcheck](https://docs.example.com/amcheck.html)',
    );
    expect(
      markdownOf(
        '<section><span class="u2"><span class="u3">const: <a href="https://tracker.example/91522">unstable</a></span></span><h4>fn borrow(&amp;self)</h4></section>',
      ),
    ).toBe('const: [unstable](https://tracker.example/91522)\n\n#### fn borrow(&self)');
    expect(markdownOf('<div><a href="#alloc">alloc</a><h2>Modules</h2></div>')).toBe('[alloc](https://docs.example.com/#alloc)\n\n## Modules');
    expect(markdownOf('<div><a href="/next.html">Next page</a><h2>Guide</h2></div>')).toBe('[Next page](https://docs.example.com/next.html)\n\n## Guide');
  });
});
