import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusRoot, loadAeb, loadTraf } from './corpus.js';
import { loadQuarryMarkdown, quarryExtractor } from './extractors.js';
import { markdownToText } from './markdown-to-text.js';
import { type ScrapeServer, startScrapeServer } from './scrape-server.js';

// The benchmark scores what users get: POST /v1/scrape on a page's stored bytes gives the same plain
// text as run.ts's pipeline. The traf pages are the ones whose decoding once differed: a charset
// declared past the first 1024 bytes (gazeta.pl, ISO-8859-2) and windows-1252 quotes and dashes.
const trafPrefixes = ['4f34f126', 'fa843cba', 'da721e20'];

const storedBytes = (corpus: string, id: string): Buffer => gunzipSync(readFileSync(join(corpusRoot, corpus, 'html', `${id}.html.gz`)));

describe('POST /v1/scrape gives the markdown run.ts scores', () => {
  let server: ScrapeServer;
  beforeAll(async () => {
    server = await startScrapeServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const pages = [
    ...loadTraf()
      .filter((page) => trafPrefixes.some((prefix) => page.id.startsWith(prefix)))
      .map((page) => ({ corpus: 'traf', ...page })),
    ...loadAeb()
      .slice(0, 3)
      .map((page) => ({ corpus: 'aeb', ...page })),
  ];

  it('finds the pages', () => {
    expect(pages).toHaveLength(trafPrefixes.length + 3);
  });

  it.each(pages.map((page) => [page.corpus, page.id.slice(0, 8), page] as const))('%s %s', async (_corpus, _id, page) => {
    const { toMarkdown } = await loadQuarryMarkdown();
    const direct = markdownToText(quarryExtractor(toMarkdown)(page.html, page.url).markdown);
    const served = markdownToText(await server.scrape(`${page.corpus}-${page.id}`, storedBytes(page.corpus, page.id)));
    expect(served).toBe(direct);
    if (page.id.startsWith('4f34f126')) expect(served).toContain('surówka na dziesiątej');
  });
});
