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
