// The smallest use of the engine: scrape one page and print its markdown.
//   npx tsx examples/scrape-a-page.ts https://example.com
import { GotFetcher } from '@quarry/adapters';
import { createEngine } from '@quarry/core';

export async function scrapeAPage(url: string, options: { allowPrivateHosts?: string[] } = {}): Promise<string> {
  const engine = createEngine({ fetcher: new GotFetcher(options) });
  try {
    const doc = await engine.scrape(url, { formats: ['markdown', 'links'] });
    return `# ${doc.metadata.title ?? url}\n\n${doc.markdown}\n\n${doc.links?.length ?? 0} links`;
  } finally {
    await engine.close();
  }
}

if (process.argv[1]?.endsWith('scrape-a-page.ts')) {
  console.log(await scrapeAPage(process.argv[2] ?? 'https://example.com'));
}
