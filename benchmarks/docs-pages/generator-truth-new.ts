/**
 * The ground truth of task 13n's generators (`generator-corpus-new.ts`), in the manner of
 * `generator-truth.ts`: the generator's own content element less the widgets its markup marks.
 * - gi-docgen: `section#main` (the sidebar, the page's table of contents `#toc` and the search
 *   results are outside it). Dropped: the heading permalinks (`a.anchor`, `a.md-anchor`, empty) and
 *   the `[src]` links to the source (`a.srclink`).
 * - Apache httpd manual: `div#page-content` (the top bar `#page-header`, the breadcrumb `#path`,
 *   the language list at the bottom and the footer are outside it). Dropped: the language toggle
 *   button and the language list (`button.lang-toggle`, `div.toplang`), the quick view
 *   (`#quickview`: the page's topics and directives as anchor links, with "see also" links, which
 *   the manual's own script moves out of the content into a floating page-navigation panel), the
 *   "back to top" arrows (`div.top`) and the heading permalinks (`a.permalink`, "¶"). A code
 *   block's language is stated on its `pre` (`prettyprint lang-config`): it is moved to a `code`
 *   inside, where the score reads it (as rustdoc's truth does).
 * - SQLite (sqlite.org's template): the `body` less the site's header (its first `div.nosearch`:
 *   logo, menus, search form), the scripts, the collapsible table of contents (`div.fancy_toc`),
 *   the syntax diagrams' show/hide buttons (`button`), the C-API pages' link back to the API's
 *   index (`div.nosearch > a`, "SQLite C Interface") and the "page last modified" line (the
 *   paragraph holding `#mtimelink`).
 */
import render from 'dom-serializer';
import { type AnyNode, Element, isTag, Text } from 'domhandler';
import { findAll, findOne, removeElement } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { NewGeneratorName } from './generator-corpus-new.js';

const hasClass = (element: Element, name: string): boolean => (element.attribs.class ?? '').split(/\s+/).includes(name);

function dropAll(root: Element, test: (element: Element) => boolean): void {
  for (const element of findAll(test, root.children)) removeElement(element);
}

/** Block elements a reader sees apart: a newline each side so the score's text does not join words. */
const blockTags: ReadonlySet<string> = new Set(
  'address article aside blockquote dd details div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table td th tr ul'.split(
    ' ',
  ),
);

function separateBlocks(parent: Element): void {
  for (const child of [...parent.children]) {
    if (!isTag(child)) continue;
    if (child.name !== 'pre') separateBlocks(child);
    if (!blockTags.has(child.name)) continue;
    const index = parent.children.indexOf(child);
    const before = new Text('\n');
    const after = new Text('\n');
    before.parent = parent;
    after.parent = parent;
    parent.children.splice(index, 1, before, child, after);
  }
  parent.children.forEach((node, position) => {
    node.prev = parent.children[position - 1] ?? null;
    node.next = parent.children[position + 1] ?? null;
  });
}

function contentElement(generator: NewGeneratorName, nodes: AnyNode[]): Element | null {
  const find = (test: (element: Element) => boolean): Element | null => findOne(test, nodes, true);
  switch (generator) {
    case 'gidocgen':
      return find((element) => element.name === 'section' && element.attribs.id === 'main');
    case 'apache':
      return find((element) => element.attribs.id === 'page-content');
    case 'sqlite':
      return find((element) => element.name === 'body');
  }
}

/** The generator's content element of a page, without its widgets, as HTML (empty when none). */
export function newGeneratorTruthHtml(generator: NewGeneratorName, html: string): string {
  const document = parseDocument(html, { decodeEntities: true });
  const content = contentElement(generator, document.children);
  if (!content) return '';
  switch (generator) {
    case 'gidocgen':
      dropAll(content, (element) => element.name === 'a' && ['anchor', 'md-anchor', 'srclink'].some((name) => hasClass(element, name)));
      break;
    case 'apache':
      dropAll(
        content,
        (element) =>
          (element.name === 'button' && hasClass(element, 'lang-toggle')) ||
          (element.name === 'div' && (hasClass(element, 'toplang') || hasClass(element, 'top'))) ||
          element.attribs.id === 'quickview' ||
          (element.name === 'a' && hasClass(element, 'permalink')),
      );
      // The manual states a block's language on the `pre` (`class="prettyprint lang-config"`, for
      // its highlighter): it is written as a `code.language-*` inside, where the score reads it.
      for (const pre of findAll((element) => element.name === 'pre', content.children)) {
        const language = /(?:^|\s)lang-(\S+)/.exec(pre.attribs.class ?? '')?.[1];
        if (!language || pre.children.some((child) => isTag(child) && child.name === 'code')) continue;
        const code = new Element('code', { class: `language-${language}` }, pre.children);
        for (const child of pre.children) child.parent = code;
        code.parent = pre;
        pre.children = [code];
      }
      break;
    case 'sqlite': {
      const header = content.children.find((child): child is Element => isTag(child) && child.name === 'div' && hasClass(child, 'nosearch'));
      if (header) removeElement(header);
      dropAll(
        content,
        (element) =>
          element.name === 'script' ||
          element.name === 'button' ||
          (element.name === 'div' && hasClass(element, 'fancy_toc')) ||
          (element.name === 'a' && !!element.parent && isTag(element.parent) && hasClass(element.parent, 'nosearch')) ||
          (element.name === 'p' && findOne((inner) => inner.attribs.id === 'mtimelink', element.children, true) !== null),
      );
      break;
    }
  }
  separateBlocks(content);
  return render(content.children, { encodeEntities: 'utf8' });
}
