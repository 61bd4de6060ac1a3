import { parseDocument } from 'htmlparser2';
import { textContent } from 'domutils';
import { describe, expect, it } from 'vitest';
import { declaredTitles, findTitleHeading } from './page-title.js';

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
});
