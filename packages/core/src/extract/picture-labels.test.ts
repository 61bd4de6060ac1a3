import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/parse-html.js';
import { collapsedText, firstElement } from './dom-tools.js';
import { removePictureLabels } from './picture-labels.js';
import { measureText } from './text-stats.js';

function cleaned(html: string): string {
  const document = parseHtml(`<div id="root">${html}</div>`);
  const root = firstElement(document, (element) => element.attribs.id === 'root') as Element;
  removePictureLabels(root, measureText(root));
  return collapsedText(root);
}

const figure = (name: string, caption: string): string => `<figure><img src="/${name}.jpg"><figcaption>${caption}</figcaption></figure>`;
const prose = '<p>The council met on Tuesday and voted to keep the library open on Sundays through the winter.</p>';

describe('removePictureLabels', () => {
  it('keeps the caption of a single figure in the flow', () => {
    expect(cleaned(`${prose}${figure('a', 'The reading room on a Sunday.')}${prose}`)).toContain('The reading room on a Sunday.');
  });

  it('keeps the captions of two figures side by side (no gallery)', () => {
    const text = cleaned(`${prose}${figure('a', 'The old hall.')}${figure('b', 'The new hall.')}${prose}`);
    expect(text).toContain('The old hall.');
    expect(text).toContain('The new hall.');
  });

  it('keeps a label that only two pictures share', () => {
    const picture = (name: string): string => `<div><img src="/${name}.jpg"><p>Festival opening night</p></div>`;
    expect(cleaned(`${picture('a')}${prose}${picture('b')}${prose}`)).toContain('Festival opening night');
  });

  it('drops the captions of a run of three figures and keeps the prose', () => {
    const text = cleaned(
      `<div>${figure('a', 'One Submitted photo')}${figure('b', 'Two Submitted photo')}${figure('c', 'Three Submitted photo')}</div>${prose}`,
    );
    expect(text).not.toContain('Submitted photo');
    expect(text).toContain('The council met');
  });

  it('keeps a figure whose picture links to the picture and whose caption is not a link', () => {
    const html = `${prose}<figure><a href="/big.jpg"><img src="/small.jpg"></a><figcaption>The hall at night, <a href="/big.jpg">full size</a>.</figcaption></figure>`;
    expect(cleaned(html)).toContain('The hall at night');
    const zoom = `${prose}<figure><a href="/big.jpg"><img src="/small.jpg"></a><figcaption>Hall <a href="/big.jpg">(enlarge the picture)</a></figcaption></figure>`;
    expect(cleaned(zoom)).toContain('enlarge the picture');
  });
});
