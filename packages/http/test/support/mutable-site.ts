import { startTestServer, type TestServer } from '@quarry/core/testing';

/**
 * A local site whose pages tests change, delete and add while Quarry runs: each page is a path, a
 * status and an HTML body; every request is counted per path.
 */
export interface MutableSite extends TestServer {
  set(path: string, body: string, status?: number): void;
  remove(path: string): void;
  /** Requests received for `path` so far. */
  hits(path: string): number;
}

export async function startMutableSite(pages: Record<string, string> = {}): Promise<MutableSite> {
  const content = new Map<string, { body: string; status: number }>();
  const counts = new Map<string, number>();
  for (const [path, body] of Object.entries(pages)) content.set(path, { body, status: 200 });
  const server = await startTestServer((_request, response, url) => {
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    const page = content.get(url.pathname);
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<html><head><title>Not found</title></head><body><h1>Not found</h1><p>No such page.</p></body></html>');
      return;
    }
    response.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page.body);
  });
  return Object.assign(server, {
    set: (path: string, body: string, status = 200) => void content.set(path, { body, status }),
    remove: (path: string) => void content.delete(path),
    hits: (path: string) => counts.get(path) ?? 0,
  });
}

/** A simple article page: title, paragraphs, optional links and JSON-LD. */
export function articlePage(title: string, paragraphs: string[], extra: { links?: string[]; jsonLd?: object; description?: string } = {}): string {
  const links = (extra.links ?? []).map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="description" content="${extra.description ?? `All about ${title}`}">
${extra.jsonLd ? `<script type="application/ld+json">${JSON.stringify(extra.jsonLd)}</script>` : ''}
</head><body><main><article><h1>${title}</h1>
${paragraphs.map((text) => `<p>${text}</p>`).join('\n')}
${links ? `<ul>${links}</ul>` : ''}
</article></main></body></html>`;
}
