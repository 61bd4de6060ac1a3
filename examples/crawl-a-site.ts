// Crawl a site in memory and print each page's URL and title as it finishes.
//   npx tsx examples/crawl-a-site.ts https://example.com/docs/ 20
import { GotFetcher } from '@quarry/adapters';
import { createEngine } from '@quarry/core';

export async function crawlASite(url: string, limit: number, options: { allowPrivateHosts?: string[] } = {}): Promise<string[]> {
  const engine = createEngine({ fetcher: new GotFetcher(options) });
  const lines: string[] = [];
  try {
    for await (const event of engine.crawl(url, { limit, scrapeOptions: { formats: ['markdown'] } })) {
      if (event.type === 'page') lines.push(`${event.document.metadata.url}\t${event.document.metadata.title ?? ''}`);
      if (event.type === 'error') lines.push(`${event.url}\terror: ${event.error.message}`);
      if (event.type === 'done') lines.push(`${event.status}: ${event.progress.completed} pages`);
    }
  } finally {
    await engine.close();
  }
  return lines;
}

if (process.argv[1]?.endsWith('crawl-a-site.ts')) {
  for (const line of await crawlASite(process.argv[2] ?? 'https://example.com', Number(process.argv[3] ?? 20))) console.log(line);
}
