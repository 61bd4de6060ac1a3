import { describe, expect, it } from 'vitest';
import { generatePage, pagePath, sitemapXml } from './site.js';

const pages = 400;

function internalLinks(html: string): string[] {
  return [...html.matchAll(/href="(\/[^"#?]*)"/g)].map((match) => match[1]!).filter((path) => !path.startsWith('/assets/') && path !== '/favicon.ico');
}

describe('the generated benchmark site', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    expect(generatePage(17, pages, 1)).toBe(generatePage(17, pages, 1));
    expect(generatePage(17, pages, 1)).not.toBe(generatePage(17, pages, 2));
  });

  it('has pages of 20-80 KB with 20-60 internal links each, all to pages of the site', () => {
    const paths = new Set(Array.from({ length: pages }, (_, index) => pagePath(index)));
    expect(paths.size).toBe(pages);
    for (let index = 0; index < pages; index += 7) {
      const html = generatePage(index, pages, 1);
      expect(html.length).toBeGreaterThanOrEqual(20_000);
      expect(html.length).toBeLessThanOrEqual(82_000);
      const links = internalLinks(html);
      expect(links.length).toBeGreaterThanOrEqual(20);
      expect(links.length).toBeLessThanOrEqual(65);
      for (const link of links) expect(paths.has(link)).toBe(true);
    }
  });

  it('reaches every page from / by links, and lists every page in the sitemap', () => {
    const seen = new Set(['/']);
    const queue = ['/'];
    const indexOf = new Map(Array.from({ length: pages }, (_, index) => [pagePath(index), index]));
    while (queue.length > 0) {
      const path = queue.shift()!;
      for (const link of internalLinks(generatePage(indexOf.get(path)!, pages, 1))) {
        if (indexOf.has(link) && !seen.has(link)) {
          seen.add(link);
          queue.push(link);
        }
      }
    }
    expect(seen.size).toBe(pages);
    expect(sitemapXml('http://127.0.0.1:1', pages).match(/<loc>/g)).toHaveLength(pages);
  });
});
