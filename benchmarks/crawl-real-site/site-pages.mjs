/**
 * The HTML files of a site on disk, for the in-process scripts (transform-pages, transform-allocations,
 * server-store-path): the same pages in the same order in each, so their hashes and figures compare.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** HTML files in a stable order, skipping Sphinx's `_sources`, `_static` and similar folders. */
export function htmlFiles(dir) {
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('_')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.html')) files.push(path);
    }
  };
  walk(dir);
  return files;
}

/** The first `count` pages of `dir`, each with the URL it has when served from 127.0.0.1. */
export function sitePages(dir, count) {
  return htmlFiles(dir)
    .slice(0, count)
    .map((path) => ({ url: `http://127.0.0.1/${relative(dir, path)}`, html: readFileSync(path, 'utf8') }));
}

/** The transform a crawl's worker runs on a page with the defaults (markdown and links, main content). */
export function crawlTransformInput(page) {
  return {
    html: page.html,
    url: page.url,
    onlyMainContent: true,
    includeTags: [],
    excludeTags: [],
    removeBase64Images: true,
    want: { markdown: true, html: false, links: true, images: false },
  };
}
