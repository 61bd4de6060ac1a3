import { oneLine } from './page-description.js';

/**
 * The llms.txt layout (llmstxt.org): an H1 with the site's name, a blockquote summary, then H2
 * sections of `- [title](url): description` links. Pages are grouped by the first segment of
 * their path (`/docs/install` -> "Docs"); pages at the top of the site form the first section,
 * "Pages". llms-full.txt has the same head, then every page's full markdown under its title.
 *
 *   # Docs Site
 *
 *   > The documentation of Docs Site.
 *
 *   ## Docs
 *
 *   - [Install](https://site/docs/install): How to install it.
 */
export interface LlmsTxtPage {
  url: string;
  title: string;
  description: string;
  /** The page's markdown (llms-full.txt only). */
  markdown?: string;
}

export interface LlmsTxtSite {
  title: string;
  summary: string;
  pages: LlmsTxtPage[];
}

export const topSectionTitle = 'Pages';

export function formatLlmsTxt(site: LlmsTxtSite): string {
  const lines = [`# ${oneLine(site.title)}`, ''];
  if (site.summary) lines.push(`> ${oneLine(site.summary)}`, '');
  for (const [section, pages] of sections(site.pages)) {
    lines.push(`## ${section}`, '');
    for (const page of pages) {
      const description = oneLine(page.description);
      lines.push(`- [${escapeLinkText(oneLine(page.title) || page.url)}](${escapeLinkUrl(page.url)})${description ? `: ${description}` : ''}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export function formatLlmsFullTxt(site: LlmsTxtSite): string {
  const head = [`# ${oneLine(site.title)}`, ''];
  if (site.summary) head.push(`> ${oneLine(site.summary)}`, '');
  const pages = site.pages.map((page) =>
    [`## ${oneLine(page.title) || page.url}`, '', `Source: ${page.url}`, '', (page.markdown ?? '').trim()].join('\n').trimEnd(),
  );
  return `${[head.join('\n').trimEnd(), ...pages].join('\n\n')}\n`;
}

/** Pages grouped by the first path segment, sections and pages in the order pages came. */
export function sections(pages: LlmsTxtPage[]): Map<string, LlmsTxtPage[]> {
  const grouped = new Map<string, LlmsTxtPage[]>();
  for (const page of pages) {
    const section = sectionOf(page.url);
    const list = grouped.get(section) ?? [];
    list.push(page);
    grouped.set(section, list);
  }
  const top = grouped.get(topSectionTitle);
  if (!top) return grouped;
  grouped.delete(topSectionTitle);
  return new Map([[topSectionTitle, top], ...grouped]);
}

function sectionOf(url: string): string {
  let segments: string[];
  try {
    segments = new URL(url).pathname.split('/').filter(Boolean);
  } catch {
    return topSectionTitle;
  }
  // A page directly under the root (`/about`) belongs to the top; `/docs/` and `/docs/x` to "Docs".
  const isFolder = new URL(url).pathname.endsWith('/');
  if (segments.length === 0 || (segments.length === 1 && !isFolder)) return topSectionTitle;
  return humanize(decodeURIComponent(segments[0]!));
}

/** `api-reference` -> "Api reference", `getting_started` -> "Getting started". */
export function humanize(segment: string): string {
  const words = segment
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/[-_]+/g, ' ')
    .trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : segment;
}

/**
 * The site's name from its pages' titles: the part (split at ` | `, ` - `, ` — `, ` · `, ` : `)
 * that most titles share, else the home page's title, else the host name.
 */
export function siteName(titles: string[], host: string, homeTitle?: string): string {
  const counts = new Map<string, number>();
  for (const title of titles) {
    const parts = new Set(splitTitle(title).filter((part) => part.length > 0));
    if (parts.size < 2) continue;
    for (const part of parts) counts.set(part, (counts.get(part) ?? 0) + 1);
  }
  const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (best && best[1] >= Math.max(2, Math.ceil(titles.length / 2))) return best[0];
  return homeTitle?.trim() || host;
}

/** A page's own title: its title without the site's name part. */
export function pageTitle(title: string, site: string): string {
  const parts = splitTitle(title);
  const own = parts.filter((part) => part !== site);
  return (own.length > 0 && own.length < parts.length ? own.join(' - ') : title).trim();
}

const splitTitle = (title: string) => title.split(/\s+[|\-–—·:]\s+/).map((part) => part.trim());

const escapeLinkText = (text: string) => text.replace(/([[\]\\])/g, '\\$1');
const escapeLinkUrl = (url: string) => url.replace(/[()\s]/g, (char) => encodeURIComponent(char));
