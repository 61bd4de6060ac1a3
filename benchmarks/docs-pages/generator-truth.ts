/**
 * The ground truth of a generator's page (`generator-corpus.ts`): its own content element, less
 * what the generator itself marks as a widget inside that element. Each rule below is one the
 * generator's markup states (a class or element it writes for a widget), not a reading of the
 * extractors' output:
 * - mdBook: `<main>`. Each heading's text is wrapped in its own permalink (`<a class="header"
 *   href="#id">`): the link is unwrapped, its text kept. A playground block is written
 *   `<pre><pre class="playground"><code class="language-rust">`: the outer `pre` is only a wrapper,
 *   so it is unwrapped (otherwise the score would count the block twice).
 * - rustdoc: `#main-content`. Dropped: the item's `[src]` link (`a.srclink`), the collapse-all
 *   toggle (`#toggle-all-docs`), the copy-path button (`button`), the "Expand description" summary
 *   (`summary.hideme`), the empty item permalinks (`a.anchor`), the playground's "Run" link
 *   (`a.test-arrow`), the hover tooltips of examples (`.tooltip`) and of notable traits
 *   (`.notable-traits`, a copy of an impl shown on hover). A heading's link to itself is unwrapped.
 *   rustdoc states a block's language on the `pre` (`class="rust ..."`, `language-*`): it is moved
 *   to the `code` inside, where the score reads it (`score.ts`: `pre > code.language-*`).
 * - Javadoc: `main` (JDK 17; `.contentContainer` before JDK 16). Dropped: the summary tables' tab
 *   buttons (`.table-tabs`: "All Methods", "Static Methods"... filter the rows by script).
 * - MkDocs (its own theme, `mkdocs`): `div[role=main]`. Dropped: heading permalinks
 *   (`a.headerlink`, empty, shown on hover).
 */
import render from 'dom-serializer';
import { type AnyNode, Element, isTag, Text } from 'domhandler';
import { findAll, findOne, removeElement } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { GeneratorName } from './generator-corpus.js';

const classes = (element: Element): string[] => (element.attribs.class ?? '').split(/\s+/).filter(Boolean);
const hasClass = (element: Element, name: string): boolean => classes(element).includes(name);

function contentElement(generator: GeneratorName, nodes: AnyNode[]): Element | null {
  const find = (test: (element: Element) => boolean): Element | null => findOne(test, nodes, true);
  switch (generator) {
    case 'mdbook':
      return find((element) => element.name === 'main');
    case 'rustdoc':
      return find((element) => element.attribs.id === 'main-content');
    case 'javadoc':
      return find((element) => element.name === 'main') ?? find((element) => hasClass(element, 'contentContainer'));
    case 'mkdocs':
      return find((element) => element.attribs.role === 'main');
  }
}

/** Replace an element by its children. */
function unwrap(element: Element): void {
  const parent = element.parent;
  if (!parent) return;
  const index = parent.children.indexOf(element);
  for (const child of element.children) child.parent = parent;
  parent.children.splice(index, 1, ...element.children);
  // Keep the sibling links right for the serializer and later searches.
  parent.children.forEach((child, position) => {
    child.prev = parent.children[position - 1] ?? null;
    child.next = parent.children[position + 1] ?? null;
  });
}

const isHeading = (element: Element): boolean => /^h[1-6]$/.test(element.name);

/** A heading's link to its own anchor (the permalink that wraps or follows its text). */
function isSelfLink(element: Element): boolean {
  if (element.name !== 'a' || !element.attribs.href?.startsWith('#')) return false;
  const heading = element.parent && isTag(element.parent) && isHeading(element.parent) ? element.parent : undefined;
  return heading?.attribs.id !== undefined && element.attribs.href === `#${heading.attribs.id}`;
}

function dropAll(root: Element, test: (element: Element) => boolean): void {
  for (const element of findAll(test, root.children)) removeElement(element);
}

/** Elements a reader sees as blocks of their own. */
const blockTags: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

/**
 * A newline on each side of every block outside code: rustdoc and Javadoc write their item tables
 * as `div` cells with no space between them (`<div>E</div><div><p>Euler's number`), which the
 * score's plain text (`score.ts`, children's text joined) would read as one word ("EEuler's").
 * A browser shows the cells apart, and so does any markdown of them.
 */
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

/** The generator's content element of a page, without its widgets, as HTML (empty when none). */
export function generatorTruthHtml(generator: GeneratorName, html: string): string {
  const document = parseDocument(html, { decodeEntities: true });
  const content = contentElement(generator, document.children);
  if (!content) return '';
  switch (generator) {
    case 'mdbook': {
      for (const link of findAll((element) => element.name === 'a' && hasClass(element, 'header'), content.children)) unwrap(link);
      for (const pre of findAll(
        (element) => element.name === 'pre' && element.children.some((child) => isTag(child) && child.name === 'pre'),
        content.children,
      ))
        unwrap(pre);
      break;
    }
    case 'rustdoc': {
      dropAll(
        content,
        (element) =>
          (element.name === 'a' && ['srclink', 'anchor', 'test-arrow'].some((name) => hasClass(element, name))) ||
          element.attribs.id === 'toggle-all-docs' ||
          element.name === 'button' ||
          (element.name === 'summary' && hasClass(element, 'hideme')) ||
          hasClass(element, 'tooltip') ||
          hasClass(element, 'notable-traits'),
      );
      for (const link of findAll(isSelfLink, content.children)) unwrap(link);
      for (const pre of findAll((element) => element.name === 'pre', content.children)) {
        const language = hasClass(pre, 'rust') ? 'rust' : (/(?:^|\s)language-(\S+)/.exec(pre.attribs.class ?? '')?.[1] ?? '');
        const code = pre.children.find((child): child is Element => isTag(child) && child.name === 'code');
        if (language === '') continue;
        if (code) code.attribs.class = `language-${language}`;
        else {
          const wrapper = new Element('code', { class: `language-${language}` }, pre.children);
          for (const child of pre.children) child.parent = wrapper;
          pre.children = [wrapper];
          wrapper.parent = pre;
        }
      }
      break;
    }
    case 'javadoc':
      dropAll(content, (element) => hasClass(element, 'table-tabs'));
      break;
    case 'mkdocs':
      dropAll(content, (element) => element.name === 'a' && hasClass(element, 'headerlink'));
      break;
  }
  separateBlocks(content);
  return render(content.children, { encodeEntities: 'utf8' });
}
