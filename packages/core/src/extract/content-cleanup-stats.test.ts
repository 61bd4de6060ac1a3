import { describe, expect, it } from 'vitest';
import { parseHtml } from '../html/parse-html.js';
import { type CleanupOptions, cleanContent } from './content-cleanup.js';
import { collapsedText, descendantElements } from './dom-tools.js';
import { measureText, measureTotalText } from './text-stats.js';

const prose = '<p>The lake lies in a valley between two ridges, and its water stays cold well into the summer, which keeps the fish deep.</p>';

function cleaned(html: string) {
  const container = descendantElements(parseHtml(`<div>${html}</div>`))[0]!;
  const stats = measureText(container);
  const options: CleanupOptions = { useClassHints: true, stats };
  cleanContent(container, options);
  return { container, stats, options };
}

describe('cleanContent keeping the stats it was given', () => {
  it('says they still hold after removals, an orphaned heading among them', () => {
    const links = Array.from({ length: 6 }, (_, index) => `<a href="/page-${index}">Page number ${index}</a>`).join(' ');
    const { container, stats, options } = cleaned(`${prose}<h2>Further pages</h2><div>${links}</div>`);
    expect(descendantElements(container).map((element) => element.name)).toEqual(['p']);
    expect(options.isStatsKept).toBe(true);
    expect(stats.get(container)!.text).toBe(measureTotalText(container));
    expect(measureText(container).get(container)).toMatchObject({ ...stats.get(container), directText: expect.any(Number), directCommas: expect.any(Number) });
  });

  it('says they do not hold once a credit tail was cut from a caption', () => {
    const { container, options } = cleaned(`${prose}<figure><img src="lake.jpg"><figcaption>The lake at dawn. © AFP / M. Bertorello</figcaption></figure>`);
    const caption = descendantElements(container).find((element) => element.name === 'figcaption')!;
    expect(collapsedText(caption)).toBe('The lake at dawn.');
    expect(options.isStatsKept).toBe(false);
  });

  it('says nothing of stats it measured itself', () => {
    const container = descendantElements(parseHtml(`<div>${prose}</div>`))[0]!;
    const options: CleanupOptions = { useClassHints: true };
    cleanContent(container, options);
    expect(options.isStatsKept).toBe(false);
  });
});
