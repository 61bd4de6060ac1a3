// Point the official Firecrawl SDK at a Quarry server (start one with `npm start`).
//   npx tsx examples/use-the-server.ts http://127.0.0.1:3002 https://example.com
import Firecrawl from '@mendable/firecrawl-js';

export async function useTheServer(apiUrl: string, url: string, apiKey = ''): Promise<{ markdown: string; pages: number }> {
  const firecrawl = new Firecrawl({ apiKey, apiUrl });
  const page = await firecrawl.scrape(url, { formats: ['markdown'] });
  const crawl = await firecrawl.crawl(url, { limit: 5, pollInterval: 1, timeout: 120 });
  return { markdown: page.markdown ?? '', pages: crawl.data.length };
}

if (process.argv[1]?.endsWith('use-the-server.ts')) {
  console.log(await useTheServer(process.argv[2] ?? 'http://127.0.0.1:3002', process.argv[3] ?? 'https://example.com', process.env.QUARRY_API_KEY));
}
