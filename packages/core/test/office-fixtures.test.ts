import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine.js';
import type { Fetcher } from '../src/ports/fetcher.js';

/** Files LibreOffice wrote (fixtures/office/README.md) through engine.parse. */
const noFetcher: Fetcher = { name: 'none', fetch: () => Promise.reject(new Error('parse must not fetch')) };
const engine = createEngine({ fetcher: noFetcher });
const fixture = async (name: string) => new Uint8Array(await readFile(new URL(`./fixtures/office/${name}`, import.meta.url)));

describe('office files written by LibreOffice', () => {
  it('DOCX: headings, lists, tables and links, the title from its properties', async () => {
    const document = await engine.parse({ bytes: await fixture('memo.docx'), filename: 'memo.docx' }, { formats: ['markdown', 'links'] });
    expect(document.markdown).toBe(
      '# Quarterly Memo\n\nRevenue: 120 units\n\n- First item\n- Second item\n\n| Region | Sales |\n| --- | --- |\n| North | 40 |\n\nSee [the report](https://example.com/report).',
    );
    expect(document.links).toEqual(['https://example.com/report']);
    expect(document.metadata.title).toBe('Office Memo');
  });

  it.each(['prices.xlsx', 'prices.ods'])('%s: the sheet as a table, numbers as written', async (name) => {
    const document = await engine.parse({ bytes: await fixture(name), filename: name }, { formats: ['markdown'] });
    expect(document.markdown).toBe('## prices\n\n| Item | Price | Stock |\n| --- | --- | --- |\n| Kettle | 39.5 | 12 |\n| Toaster | 25 | 0 |');
    expect(document.metadata.numSheets).toBe(1);
  });

  it('PPTX: every slide in order, text boxes without a title placeholder under "Slide N"', async () => {
    const document = await engine.parse({ bytes: await fixture('deck.pptx'), filename: 'deck.pptx' }, { formats: ['markdown'] });
    expect(document.markdown).toBe('## Slide 1\n\nLaunch Plan\n\nShip the parser\n\nShip the agent\n\n## Slide 2\n\nNext Steps\n\nMeasure everything');
    expect(document.metadata.numSlides).toBe(2);
  });
});
