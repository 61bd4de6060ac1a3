import type { ScrapeDocument } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { presentDocument, presentDocumentText } from '../src/routes/present-document.js';
import { statusPageBody, statusPagePieces, type StatusPage } from '../src/server/status-page.js';

const document = (extra: Partial<ScrapeDocument> = {}, metadata: Partial<ScrapeDocument['metadata']> = {}): ScrapeDocument =>
  ({
    markdown: '# Title\n\nA page that says "extract": and "proxyUsed":"enhanced" in its text.',
    metadata: { sourceURL: 'https://example.com/', url: 'https://example.com/', statusCode: 200, scrapeId: 's-1', proxyUsed: 'basic', ...metadata },
    ...extra,
  }) as ScrapeDocument;

describe('status pages written from the stored JSON texts', () => {
  it('presents a document text as presentDocument presents the document, for every version', () => {
    const documents = [
      document(),
      document({ extract: { name: 'x' } }),
      document({}, { proxyUsed: 'enhanced' }),
      document({ extract: { name: 'x' } }, { proxyUsed: 'enhanced' }),
    ];
    for (const version of ['v1', 'v2'] as const) {
      for (const shown of documents) {
        expect(JSON.parse(presentDocumentText(JSON.stringify(shown), version))).toEqual(presentDocument(shown, version));
      }
    }
    // A text v1 leaves alone is answered as it is, not serialised again.
    const plain = JSON.stringify({ markdown: 'plain', metadata: { proxyUsed: 'basic' } });
    expect(presentDocumentText(plain, 'v1')).toBe(plain);
  });

  it('writes the page as the JSON it was, the documents spliced in', () => {
    const texts = [JSON.stringify(document()), JSON.stringify(document({ extract: { a: 1 } }))];
    const page: StatusPage = {
      success: true,
      status: 'completed',
      completed: 2,
      total: 2,
      creditsUsed: 2,
      expiresAt: new Date(0).toISOString(),
      next: 'https://example.com/v1/crawl/x?skip=2',
      data: texts,
    };
    expect(JSON.parse(statusPageBody(page))).toEqual({ ...page, data: texts.map((text) => JSON.parse(text)) });
    expect(JSON.parse(statusPageBody({ ...page, data: [] })).data).toEqual([]);
  });

  it('writes the same body in pieces under the large-object size, with its byte length', () => {
    const long = (index: number) => JSON.stringify(document({}, { title: `page ${index} – ${'é'.repeat(index * 700)}` }));
    const head = { success: true, status: 'completed', completed: 3, total: 3, creditsUsed: 3, expiresAt: new Date(0).toISOString() } as const;
    for (const data of [[], [long(0)], [long(1), long(2)], Array.from({ length: 120 }, (_, index) => long(index))]) {
      const page: StatusPage = { ...head, data };
      const { pieces, bytes } = statusPagePieces(page);
      expect(pieces.join('')).toBe(statusPageBody(page));
      expect(bytes).toBe(Buffer.byteLength(statusPageBody(page)));
      // Each piece is at most 32 K characters, or one document longer than that.
      for (const piece of pieces) expect(piece.length <= 32 * 1024 || data.some((text) => piece.includes(text) && text.length > 16 * 1024)).toBe(true);
    }
    expect(statusPagePieces({ ...head, data: [long(1)] }).pieces).toHaveLength(1);
  });
});
