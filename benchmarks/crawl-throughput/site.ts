/**
 * A deterministic documentation-and-blog site for the crawl benchmark: `pages` HTML pages of
 * 20-80 KB (head with meta tags, inline CSS and scripts, nav, header, breadcrumb, sidebar, article
 * prose with tables, code blocks, lists and quotes, footer), 20-60 internal links each, a sitemap
 * and robots.txt. The same seed gives the same bytes.
 *
 * Every page is reachable from `/`: page i links to its tree children 2i+1 and 2i+2 (and to its
 * parent, neighbours and random related pages), so a link walk and the sitemap find the same set.
 */

export interface SitePage {
  path: string;
  html: string;
}

const sections = ['docs', 'guides', 'blog', 'api', 'reference', 'tutorials', 'news', 'community', 'changelog', 'help'];

const vocabulary = (
  'crawler frontier request response header body cache queue worker thread server client page link sitemap robots ' +
  'markdown parser element attribute table column row value token stream buffer socket timeout retry limit depth ' +
  'the a of and to in is that for it with as was on be by this are or from at which an have not but they all ' +
  'configure install deploy monitor measure compare improve reduce increase handle return create update delete ' +
  'quickly carefully usually often rarely always never simply directly efficiently reliably safely ' +
  'performance memory storage network latency throughput benchmark profile database index document schema option'
).split(' ');

/** mulberry32: small, fast and good enough for generated text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The path of page `index`: `/` for 0, then `/<section>/<slug>-<index>`. */
export function pagePath(index: number): string {
  if (index === 0) return '/';
  const section = sections[index % sections.length]!;
  const slug = vocabulary[(index * 7) % vocabulary.length]! + '-' + vocabulary[(index * 13 + 5) % vocabulary.length]!;
  return `/${section}/${slug}-${index}`;
}

function pageTitle(index: number): string {
  if (index === 0) return 'Quarry Bench Docs';
  const words = [
    vocabulary[(index * 7) % vocabulary.length]!,
    vocabulary[(index * 13 + 5) % vocabulary.length]!,
    vocabulary[(index * 17 + 3) % vocabulary.length]!,
  ];
  return words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ') + ` (${index})`;
}

export function generatePage(index: number, pages: number, seed: number): string {
  const next = random(seed * 1_000_003 + index);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const between = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const words = (count: number) => {
    let text = vocabulary[Math.floor(next() * vocabulary.length)]!;
    for (let word = 1; word < count; word++) text += ' ' + vocabulary[Math.floor(next() * vocabulary.length)]!;
    return text;
  };
  const sentence = () => {
    const text = words(between(6, 18));
    return text[0]!.toUpperCase() + text.slice(1) + pick(['.', '.', '.', '?', '!']);
  };
  const randomPage = () => between(0, pages - 1);
  const link = (target: number, text = pageTitle(target)) => `<a href="${pagePath(target)}">${text}</a>`;

  const targetBytes = between(20_000, 77_000);
  const title = pageTitle(index);
  const section = index === 0 ? 'home' : sections[index % sections.length]!;
  const out: string[] = [];

  // Head: meta tags, inline CSS, structured data and analytics, as real pages carry them.
  out.push(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} | Quarry Bench</title>
<meta name="description" content="${sentence()}">
<meta name="keywords" content="${words(6).split(' ').join(', ')}">
<meta property="og:title" content="${title}">
<meta property="og:type" content="article">
<meta property="og:site_name" content="Quarry Bench">
<meta property="og:description" content="${sentence()}">
<meta property="article:section" content="${section}">
<meta property="article:published_time" content="2024-0${between(1, 9)}-1${between(0, 9)}T10:00:00Z">
<meta name="twitter:card" content="summary">
<link rel="canonical" href="${pagePath(index)}">
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/assets/site.css">
<style>
${Array.from({ length: between(30, 80) }, (_, rule) => `.c${rule}-${pick(vocabulary)} { margin: ${between(0, 24)}px ${between(0, 24)}px; padding: ${between(0, 16)}px; color: #${between(0x100000, 0xffffff).toString(16)}; display: ${pick(['block', 'flex', 'grid', 'inline-block'])}; }`).join('\n')}
</style>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"TechArticle","headline":"${title}","author":{"@type":"Person","name":"${pick(vocabulary)} ${pick(vocabulary)}"},"datePublished":"2024-05-0${between(1, 9)}"}</script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config','G-${between(100000, 999999)}');${Array.from({ length: between(5, 20) }, () => `var ${pick(vocabulary)}${between(1, 99)}=${between(1, 9999)};`).join('')}</script>
</head>
<body class="page-${section}">`);

  // Header and navigation: the site's sections and home.
  out.push(`<header class="site-header"><div class="container"><a class="logo" href="/">Quarry Bench</a>
<nav class="main-nav" aria-label="Main"><ul>${sections.map((name, offset) => `<li class="nav-item"><a class="nav-link" href="${pagePath(offset + 1)}">${name[0]!.toUpperCase() + name.slice(1)}</a></li>`).join('')}</ul></nav>
<form class="search" action="/search"><input type="search" name="q" placeholder="Search the docs"><button type="submit">Search</button></form>
</div></header>`);
  out.push(`<div class="breadcrumb"><a href="/">Home</a> / <a href="${pagePath((index % sections.length) + 1)}">${section}</a> / <span>${title}</span></div>`);

  // Sidebar: related pages (the tree children come first, so every page is reachable).
  const tree = [2 * index + 1, 2 * index + 2, Math.floor((index - 1) / 2), index + 1, index - 1].filter(
    (target) => target >= 0 && target < pages && target !== index,
  );
  const related = [...tree, ...Array.from({ length: between(8, 24) }, randomPage)];
  out.push(`<div class="layout"><aside class="sidebar"><h3>Related</h3><ul class="related">${related.map((target) => `<li class="related-item">${link(target)}</li>`).join('')}</ul>
<div class="ad"><p>${sentence()}</p><a href="https://ads.example.net/click?id=${between(1, 9999)}">Sponsored</a></div></aside>`);

  // Article: prose until the page reaches its size.
  out.push(`<main id="content"><article class="post"><h1>${title}</h1>
<p class="lead">${sentence()} ${sentence()}</p>
<p class="meta">Published by <a href="${pagePath(randomPage())}">${pick(vocabulary)}</a> · ${between(3, 25)} min read · <a href="#comments">Comments</a></p>`);
  let size = out.reduce((total, part) => total + part.length, 0);
  let sectionIndex = 0;
  let inlineLinks = between(3, 12);
  while (size < targetBytes) {
    const parts: string[] = [`<h2 id="s${sectionIndex}">${words(between(2, 6))}</h2>`];
    for (let paragraph = between(2, 5); paragraph > 0; paragraph--) {
      const sentences = Array.from({ length: between(3, 8) }, sentence);
      if (inlineLinks > 0 && next() < 0.7) {
        inlineLinks--;
        sentences.splice(between(0, sentences.length), 0, `See ${link(randomPage())} for <em>more</em> on <code>${pick(vocabulary)}</code>.`);
      }
      parts.push(`<p>${sentences.join(' ')}</p>`);
    }
    const extra = next();
    if (extra < 0.25) {
      const columns = between(3, 6);
      const rows = between(4, 14);
      parts.push(
        `<table class="data"><thead><tr>${Array.from({ length: columns }, () => `<th>${pick(vocabulary)}</th>`).join('')}</tr></thead><tbody>${Array.from({ length: rows }, () => `<tr>${Array.from({ length: columns }, () => `<td>${next() < 0.5 ? between(1, 99999) : words(between(1, 3))}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
      );
    } else if (extra < 0.45) {
      const lines = Array.from(
        { length: between(4, 18) },
        () =>
          `  const ${pick(vocabulary)}${between(1, 9)} = await ${pick(vocabulary)}.${pick(vocabulary)}(&quot;${pick(vocabulary)}&quot;, ${between(1, 500)}); // ${words(3)}`,
      );
      parts.push(`<pre><code class="language-ts">export async function ${pick(vocabulary)}() {\n${lines.join('\n')}\n}</code></pre>`);
    } else if (extra < 0.6) {
      parts.push(`<ul>${Array.from({ length: between(3, 8) }, () => `<li><strong>${pick(vocabulary)}</strong>: ${sentence()}</li>`).join('')}</ul>`);
    } else if (extra < 0.7) {
      parts.push(`<blockquote><p>${sentence()} ${sentence()}</p></blockquote>`);
    } else if (extra < 0.8) {
      parts.push(
        `<figure><img src="/images/${pick(vocabulary)}-${between(1, 999)}.png" alt="${words(4)}" width="640" height="360"><figcaption>${sentence()}</figcaption></figure>`,
      );
    } else {
      parts.push(`<ol>${Array.from({ length: between(3, 7) }, () => `<li>${sentence()}</li>`).join('')}</ol>`);
    }
    const block = `<section class="c${sectionIndex % 30}">${parts.join('\n')}</section>\n`;
    out.push(block);
    size += block.length;
    sectionIndex++;
  }
  out.push(
    `<div id="comments" class="comments"><h2>Comments</h2><p>${sentence()}</p><a href="#content">Back to top</a> <a href="mailto:team@bench.example">Write to us</a></div></article></main></div>`,
  );

  // Footer: fixed links, an external one, copyright.
  out.push(`<footer class="site-footer"><div class="columns">
<ul><li><a href="/">Home</a></li><li>${link(1, 'Docs')}</li><li>${link(2, 'Guides')}</li><li>${link(3, 'Blog')}</li></ul>
<ul><li>${link(7, 'News')}</li><li>${link(8, 'Community')}</li><li><a href="https://github.example/quarry">Source</a></li></ul>
</div><p class="copyright">© 2024 Quarry Bench. ${sentence()}</p></footer>
<script src="/assets/app.js" defer></script>
</body>
</html>
`);
  return out.join('\n');
}

export function sitemapXml(origin: string, pages: number): string {
  const entries = Array.from({ length: pages }, (_, index) => `<url><loc>${origin}${pagePath(index)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`;
}
