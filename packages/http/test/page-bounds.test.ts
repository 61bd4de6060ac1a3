import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';
import { startMutableSite, type MutableSite } from './support/mutable-site.js';

/**
 * A page over QUARRY_MAX_PAGE_ELEMENTS, QUARRY_MAX_TABLE_CELLS or QUARRY_MAX_MARKDOWN_CHARS is cut
 * where the bound is reached and its first part converted, with a `warning` on the document: a
 * long changelog or a giant table gives what fits instead of a failed page. Small bounds here, so
 * each page is small and the answer does not depend on the transform deadline.
 */
let site: MutableSite;
let quarry: TestQuarry;

/** A changelog of `count` entries, each a heading and a paragraph (two elements). */
function changelog(count: number): string {
  const entries = Array.from({ length: count }, (_, index) => `<h2>Version ${count - index}</h2><p>Fixed bug ${count - index}.</p>`).join('\n');
  return `<!doctype html><html><head><title>Changelog</title></head><body><main>${entries}</main></body></html>`;
}

beforeAll(async () => {
  site = await startMutableSite({
    // html, head, title, body, main: 5 elements, then 2 per entry; scripts and comments hide tags that are not counted.
    '/changelog': changelog(500),
    '/hidden': `<!doctype html><html><head><title>Hidden</title><script>${'<i>'.repeat(5_000)}</script></head><body><!-- ${'<b>'.repeat(5_000)} --><p title="${'<u>'.repeat(5_000)}">${'A paragraph of plain text. '.repeat(40)}</p></body></html>`,
    '/table': `<!doctype html><html><head><title>Prices</title></head><body><table><tr><th>Item</th><th>Price</th></tr>${Array.from({ length: 400 }, (_, index) => `<tr><td>item ${index}</td><td>${index} EUR</td></tr>`).join('')}</table></body></html>`,
    '/long-text': `<!doctype html><html><head><title>Long</title></head><body><p>${'lorem ipsum '.repeat(2_000)}</p></body></html>`,
  });
  quarry = await startQuarry({ QUARRY_MAX_PAGE_ELEMENTS: '205', QUARRY_MAX_TABLE_CELLS: '100', QUARRY_MAX_MARKDOWN_CHARS: '6000' });
});

afterAll(async () => {
  await quarry?.close();
  await site?.close();
});

async function scrape(path: string, formats: string[] = ['markdown']) {
  const response = await fetch(`${quarry.url}/v1/scrape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${site.url}${path}`, formats }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { success: boolean; data?: { markdown?: string; rawHtml?: string; warning?: string; metadata?: { title?: string } } },
  };
}

describe('pages over a per-page bound', () => {
  it('a changelog over QUARRY_MAX_PAGE_ELEMENTS gives its first entries, with a warning', async () => {
    const { status, body } = await scrape('/changelog', ['markdown', 'rawHtml']);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data?.metadata?.title).toBe('Changelog');
    // 205 elements: 5 before the entries, then 100 entries.
    expect(body.data?.markdown).toContain('## Version 500\n\nFixed bug 500.');
    expect(body.data?.markdown).toContain('## Version 401\n\nFixed bug 401.');
    expect(body.data?.markdown).not.toContain('Version 400');
    expect(body.data?.warning).toMatch(
      /^The page has more than 205 elements \(QUARRY_MAX_PAGE_ELEMENTS\): only its first \d+ of \d+ characters of HTML \(20 %\) were converted\.$/,
    );
    // rawHtml stays the page as fetched.
    expect(body.data?.rawHtml).toContain('Version 1</h2>');
  });

  it('tags inside a script, a comment or an attribute value are not counted', async () => {
    const { status, body } = await scrape('/hidden');
    expect(status).toBe(200);
    expect(body.data?.markdown).toBe('A paragraph of plain text. '.repeat(40).trim());
    expect(body.data).not.toHaveProperty('warning');
  });

  it('a table over QUARRY_MAX_TABLE_CELLS keeps its first rows', async () => {
    const { status, body } = await scrape('/table');
    expect(status).toBe(200);
    const rows = body.data?.markdown?.split('\n').filter((line) => line.startsWith('| item'));
    // 100 cells: the header's 2, then 49 rows.
    expect(rows).toHaveLength(49);
    expect(rows?.at(-1)).toBe('| item 48 | 48 EUR |');
    expect(body.data?.warning).toMatch(/^The page has more than 100 table cells \(QUARRY_MAX_TABLE_CELLS\)/);
  });

  it('a page over QUARRY_MAX_MARKDOWN_CHARS gives its first 6000 characters', async () => {
    const { status, body } = await scrape('/long-text');
    expect(status).toBe(200);
    expect(body.data?.markdown?.length).toBeLessThanOrEqual(6_000);
    expect(body.data?.markdown?.length).toBeGreaterThan(5_900);
    expect(body.data?.markdown).toMatch(/^lorem ipsum lorem/);
    expect(body.data?.warning).toMatch(/^The page has more than 6000 characters of text \(QUARRY_MAX_MARKDOWN_CHARS\)/);
  });
});
