import type { RouteTable } from './test-server.js';

/**
 * A small documentation site for engine, crawl, map and server tests: layout chrome (header, nav,
 * sidebar, footer, cookie banner) around real content (tables, code, lists), relative links,
 * robots.txt, a sitemap, a redirect, error pages and a JSON endpoint. Every page carries a unique
 * token (`token-<path>`) so tests can count pages exactly.
 */
export interface DocsSitePage {
  path: string;
  title: string;
  links: string[];
}

export const docsSitePages: DocsSitePage[] = [
  { path: '/', title: 'Home', links: ['/docs/', '/blog/', '/about', '/docs/install'] },
  { path: '/about', title: 'About', links: ['/', '/docs/'] },
  { path: '/docs/', title: 'Docs', links: ['/docs/install', '/docs/config', '/docs/api/', '/docs/install#usage', 'https://example.org/elsewhere'] },
  { path: '/docs/install', title: 'Install', links: ['/docs/', '/docs/config', '/moved'] },
  { path: '/docs/config', title: 'Config', links: ['/docs/', '/docs/api/', '/private/secret'] },
  { path: '/docs/api/', title: 'API', links: ['/docs/api/scrape', '/docs/api/crawl', '/docs/'] },
  { path: '/docs/api/scrape', title: 'Scrape API', links: ['/docs/api/', '/docs/api/crawl'] },
  { path: '/docs/api/crawl', title: 'Crawl API', links: ['/docs/api/', '/missing', '/broken'] },
  { path: '/blog/', title: 'Blog', links: ['/blog/first-post', '/blog/second-post', '/'] },
  { path: '/blog/first-post', title: 'First post', links: ['/blog/', '/blog/second-post'] },
  { path: '/blog/second-post', title: 'Second post', links: ['/blog/', '/blog/first-post', '/private/secret'] },
  { path: '/private/secret', title: 'Secret', links: [] },
  { path: '/sitemap-only', title: 'Only in the sitemap', links: [] },
];

export function tokenOf(path: string): string {
  return `token-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}`;
}

export function docsPageHtml(page: DocsSitePage): string {
  const links = page.links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${page.title} | Docs Site</title>
<meta name="description" content="The ${page.title} page of the docs site.">
<meta property="og:title" content="${page.title}">
<link rel="icon" href="/favicon.ico"></head>
<body>
<header class="site-header"><a href="/">Docs Site</a><nav><a href="/docs/">Docs</a> <a href="/blog/">Blog</a> <a href="/about">About</a></nav></header>
<div class="cookie-banner" id="cookie-consent">We use cookies. <button>Accept</button></div>
<aside class="sidebar"><ul>${links}</ul></aside>
<main><article>
<h1>${page.title}</h1>
<p>This page is about ${page.title.toLowerCase()}. It carries the unique token ${tokenOf(page.path)} so that tests can count it, and enough prose to be the main content of the page, with a sentence or two more.</p>
<h2>Details</h2>
<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>limit</td><td>10000</td></tr><tr><td>depth</td><td>10</td></tr></tbody></table>
<pre><code class="language-js">const answer = 42;
console.log(answer);</code></pre>
<ul><li>First point</li><li>Second point with <a href="${page.links[0] ?? '/'}">a link</a></li></ul>
</article></main>
<footer class="site-footer">© Docs Site · <a href="/about">About</a></footer>
</body></html>`;
}

export function docsSiteRoutes(options: { robots?: string; sitemap?: boolean } = {}): RouteTable {
  const routes: RouteTable = {};
  for (const page of docsSitePages) routes[page.path] = { body: docsPageHtml(page) };
  routes['/moved'] = { status: 301, headers: { location: '/docs/config' }, body: '' };
  routes['/broken'] = { status: 500, body: '<html><body><h1>Server error</h1></body></html>' };
  routes['/data.json'] = { type: 'application/json', body: JSON.stringify({ name: 'quarry', pages: 12 }) };
  const origin = (request: { headers: { host?: string } }) => `http://${request.headers.host ?? '127.0.0.1'}`;
  routes['/robots.txt'] = (request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(options.robots ?? `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin(request)}/sitemap.xml\n`);
  };
  if (options.sitemap !== false) {
    routes['/sitemap.xml'] = (request, response) => {
      response.writeHead(200, { 'content-type': 'application/xml' });
      const locs = ['/', '/docs/', '/sitemap-only', '/blog/first-post'].map((path) => `<url><loc>${origin(request)}${path}</loc></url>`);
      response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.join('')}</urlset>`);
    };
  }
  return routes;
}
