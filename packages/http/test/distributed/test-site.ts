import { startTestServer, type TestServer } from '@quarry/core/testing';

/**
 * A site of `pageCount` pages, `/p/0` to `/p/<n-1>`, each linking to the next three and carrying a
 * unique token (`tok-<i>-end`), answered after `delayMs`: a crawl of it lasts long enough to break
 * something in the middle, and its result can be checked page by page.
 */
export async function startTokenSite(pageCount: number, delayMs: number): Promise<TestServer> {
  return startTestServer(async (_request, response, url) => {
    const match = /^\/p\/(\d+)$/.exec(url.pathname);
    if (!match || Number(match[1]) >= pageCount) {
      response.writeHead(404);
      return response.end();
    }
    const index = Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const links = [1, 2, 3].map((step) => `<a href="/p/${(index + step) % pageCount}">next ${step}</a>`).join(' ');
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(
      `<html><head><title>Page ${index}</title></head><body><main><h1>Page ${index}</h1><p>Unique token tok-${index}-end with some prose for the main content of this page.</p>${links}</main></body></html>`,
    );
  });
}

/** The page tokens found in a crawl's documents, in order. */
export function tokensOf(documents: Array<{ markdown?: string }>): Array<string | undefined> {
  return documents.map((document) => /tok-(\d+)-end/.exec(document.markdown ?? '')?.[1]);
}

export async function json(url: string, init?: RequestInit): Promise<Record<string, any>> {
  const response = await fetch(url, init);
  return (await response.json()) as Record<string, any>;
}

export async function startCrawl(apiUrl: string, url: string, options: Record<string, unknown> = {}): Promise<string> {
  const started = await json(`${apiUrl}/v2/crawl`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, crawlEntireDomain: true, sitemap: 'skip', ...options }),
  });
  if (!started.success) throw new Error(`crawl refused: ${JSON.stringify(started)}`);
  return started.id as string;
}
