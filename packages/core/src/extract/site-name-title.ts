/**
 * The page's own title under a site-name `h1`. A blog theme writes the site's name (its logo) as
 * the page's only `h1` and the post's title as an `h2` or `h3` lower down; the declared title says
 * both, parted ("With shattered dreams, deportees return home from US | India Post"). Put on top,
 * that `h1` would title every page of the site with the site's name. When the only `h1` says only
 * words of the declared title's trailing part (the site's) and none of its leading part (the
 * page's), the first lower heading after it that says most of the leading part titles the page.
 * Seen on a news site, a WordPress.com blog and a news portal (indiapost, cubadebate, a blog of
 * the traf corpus). By words and position: no class name is read.
 */
import type { Element } from 'domhandler';
import { isTag } from 'domhandler';
import { collapsedText, firstElement, headingTags } from './dom-tools.js';
import { matchedWords, titleSeparator, tokens } from './page-title.js';

/** Share of the page's part of the title (its distinct words) the lower heading must say. */
const pagePartCoverage = 0.6;

const isLink = (element: Element): boolean => element.name === 'a';

/** True when `heading` is or holds a link: a post's title linked to its own page is in the content already. */
function isLinked(heading: Element): boolean {
  for (let node = heading.parent; node && isTag(node); node = node.parent) if (node.name === 'a') return true;
  return firstElement(heading, isLink) !== undefined;
}

/**
 * The heading that titles the page instead of `title`, the page's only `h1`, when `title` names
 * only the site (see the module comment); else `title`. `elements`: the page's elements in
 * document order. Reads the headings after `title` once.
 */
export function pageTitleBelowSiteName(title: Element | undefined, titles: string[], elements: Element[]): Element | undefined {
  if (title?.name !== 'h1') return title;
  const declared = titles.map((text) => text.split(titleSeparator)).find((parts) => parts.length > 1);
  if (!declared) return title;
  const [page, ...rest] = declared.map((part) => new Set(tokens(part)));
  const titleWords = tokens(collapsedText(title));
  // Every word of the `h1` in the site's part, none in the page's.
  if (titleWords.length === 0 || titleWords.some((word) => page!.has(word))) return title;
  if (!rest.some((part) => titleWords.every((word) => part.has(word)))) return title;
  const start = elements.indexOf(title);
  if (start < 0) return title;
  for (let index = 0; index < start; index++) if (elements[index]!.name === 'h1') return title;
  for (let index = start + 1; index < elements.length; index++) {
    const element = elements[index]!;
    if (element.name === 'h1') return title;
    if (!headingTags.has(element.name)) continue;
    const words = tokens(collapsedText(element));
    if (words.length === 0 || isLinked(element)) continue;
    const said = matchedWords(words, page!);
    if (said > 0 && new Set(words.filter((word) => page!.has(word))).size >= pagePartCoverage * page!.size) return element;
  }
  return title;
}
