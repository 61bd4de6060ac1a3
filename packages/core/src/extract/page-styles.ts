/**
 * What the page's own stylesheets hide: the class and id tokens that a `<style>` element sets to
 * `display: none` or `visibility: hidden` with a simple selector (`.a`, `#a`, `tag.a`, `tag#a`,
 * comma lists of them), at the top level or inside `@media screen` / `@media all` only (never a
 * print sheet or a width query: the page at another size shows it). A token that any rule shows
 * again (a later or more specific rule naming it with another `display` or `visibility: visible`:
 * `.menu.open .a {display: block}`) is left out: the page reveals it in some state, by script or
 * hover. Only the `<style>` text is read (linked stylesheets are not fetched).
 */
import { type AnyNode, type Document, type Element, type ParentNode, isTag } from 'domhandler';
import { isNonContent } from './page-preparation.js';

export interface HiddenStyleTokens {
  /** Class tokens and ids (`#` first) a simple rule hides. */
  hidden: ReadonlySet<string>;
  /**
   * Class tokens and ids (`#` first) some rule shows: an element that also carries one of them
   * is not taken as hidden (`class="hidden md:block"`: shown at a width).
   */
  shown: ReadonlySet<string>;
}

/** A class or id token as CSS writes it (escapes such as `md\:block` allowed). */
const tokenSource = String.raw`((?:[\w-]|\\.|[^\x00-\x7f])+)`;
const simpleSelectorPattern = new RegExp(`^(?:[a-z][a-z0-9]*)?([.#])${tokenSource}$`, 'i');
/** The class and id tokens of a selector's last compound (the element the rule styles). */
const lastCompoundTokensPattern = new RegExp(`([.#])${tokenSource}`, 'gi');
const unescapePattern = /\\(.)/g;
const screenMediaPattern = /^\s*(?:only\s+)?(?:screen|all)\s*(?:,\s*(?:only\s+)?(?:screen|all)\s*)*$/i;

/** The tokens the `<style>` elements of `document` hide, or undefined when they hide none. */
export function hiddenStyleTokens(document: Document | Element): HiddenStyleTokens | undefined {
  let css = '';
  const stack: AnyNode[] = [...document.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === 'style') {
      const media = node.attribs.media;
      if (media !== undefined && media.trim() !== '' && !screenMediaPattern.test(media)) continue;
      // Each `<style>` is a sheet of its own: a comment left open ends with it.
      let sheet = '';
      for (const child of node.children) if (child.type === 'text') sheet += (child as unknown as { data: string }).data;
      css += `${withoutComments(sheet)}\n`;
    } else if (node.name !== 'script' && node.name !== 'template') {
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
    }
  }
  return css.includes('none') || css.includes('hidden') ? hiddenTokensOfCss(css) : undefined;
}

/** The tokens hidden by `css` (a stylesheet's text), see the module comment. */
export function hiddenTokensOfCss(css: string): HiddenStyleTokens | undefined {
  const hidden = new Set<string>();
  const shown = new Set<string>();
  readRules(withoutComments(css), hidden, shown);
  for (const token of shown) hidden.delete(token);
  return hidden.size > 0 ? { hidden, shown } : undefined;
}

/**
 * `css` with each comment replaced by a space, in one pass. A comment left open runs to the end of
 * the sheet, as CSS reads it. (A lazy `/\*[\s\S]*?\*\//g` did not: it searched the rest of the
 * sheet again from every `/*` for a close that never came, so 40,000 open comments, 200 KB, took
 * 2 s and grew with the square of the sheet.)
 */
function withoutComments(css: string): string {
  let open = css.indexOf('/*');
  if (open < 0) return css;
  let text = '';
  let from = 0;
  while (open >= 0) {
    text += `${css.slice(from, open)} `;
    const close = css.indexOf('*/', open + 2);
    if (close < 0) return text;
    from = close + 2;
    open = css.indexOf('/*', from);
  }
  return text + css.slice(from);
}

/** A token as the page's `class` or `id` attribute writes it: `.md\:block` is `md:block`, `#a` stays `#a`. */
function tokenKey(kind: string, token: string): string {
  const name = token.replace(unescapePattern, '$1');
  return kind === '#' ? `#${name}` : name;
}

/**
 * Reads the rules of `css` in one pass. Group blocks (`@media`, `@supports`, `@layer`,
 * `@container`) are entered, not recursed into: a stack holds whether each open group applies to
 * the screen, so a hostile sheet of thousands of nested groups neither overflows the call stack
 * nor is scanned once per level. Rules inside a group are read for what they show (a width query
 * that shows a token hidden elsewhere) and count as hiding only under screen media. Other at-rules
 * (`@font-face`, `@keyframes`...) are skipped whole.
 */
function readRules(css: string, hidden: Set<string>, shown: Set<string>): void {
  const groupCounts: boolean[] = [true];
  /** The next `char` from `from`, or the sheet's length when there is none. */
  const next = (char: string, from: number): number => {
    const at = css.indexOf(char, from);
    return at < 0 ? css.length : at;
  };
  let position = 0;
  let open = -1;
  let close = -1;
  while (position < css.length) {
    // A search is run again only once passed: a long run of lone braces is read once.
    if (open < position) open = next('{', position);
    if (close < position) close = next('}', position);
    if (open === css.length && close === css.length) return;
    if (close < open) {
      if (groupCounts.length > 1) groupCounts.pop();
      position = close + 1;
      continue;
    }
    const prelude = css.slice(position, open).trim();
    const counts = groupCounts[groupCounts.length - 1]!;
    if (prelude.startsWith('@')) {
      const media = /^@media\s+([^{]*)$/i.exec(prelude);
      if (media || /^@(?:supports|layer|container)\b/i.test(prelude)) {
        groupCounts.push(counts && media !== null && screenMediaPattern.test(media[1]!));
        position = open + 1;
        continue;
      }
    }
    const end = blockEnd(css, open, css.length);
    if (!prelude.startsWith('@')) readRule(prelude, css.slice(open + 1, end), hidden, shown, counts);
    position = end + 1;
  }
}

/** The index of the `}` closing the block opened at `open` (or `end`). */
function blockEnd(css: string, open: number, end: number): number {
  let depth = 0;
  for (let index = open; index < end; index++) {
    const char = css.charCodeAt(index);
    if (char === 123) depth++;
    else if (char === 125 && --depth === 0) return index;
  }
  return end;
}

function readRule(selectors: string, declarations: string, hidden: Set<string>, shown: Set<string>, counts: boolean): void {
  const effect = ruleEffect(declarations);
  if (effect === undefined) return;
  for (const raw of selectors.split(',')) {
    const selector = raw.trim();
    if (effect === 'hide' && counts) {
      const simple = simpleSelectorPattern.exec(selector);
      if (simple) hidden.add(tokenKey(simple[1]!, simple[2]!));
      continue;
    }
    if (effect === 'show') {
      const last = selector.split(/\s*[\s>+~]\s*/).pop() ?? '';
      for (const match of last.matchAll(lastCompoundTokensPattern)) shown.add(tokenKey(match[1]!, match[2]!));
    }
  }
}

/**
 * 'hide' for a rule that sets display:none or visibility:hidden, 'show' for one that sets another
 * display or visibility:visible (and hides nothing), undefined for a rule that sets neither.
 */
function ruleEffect(declarations: string): 'hide' | 'show' | undefined {
  let display: string | undefined;
  let visibility: string | undefined;
  for (const declaration of declarations.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    if (property !== 'display' && property !== 'visibility') continue;
    const value = declaration
      .slice(colon + 1)
      .replace(/!\s*important/i, '')
      .trim()
      .toLowerCase();
    if (property === 'display') display = value;
    else visibility = value;
  }
  if (display === 'none' || visibility === 'hidden' || visibility === 'collapse') return 'hide';
  return display !== undefined || visibility === 'visible' ? 'show' : undefined;
}

/**
 * The token by which the page's styles hide `element` (the first one met, an id before a class),
 * or undefined when it carries none or carries a token they show.
 */
export function hidingToken(element: Element, tokens: HiddenStyleTokens): string | undefined {
  const { class: className, id } = element.attribs;
  let hiding: string | undefined;
  if (id !== undefined) {
    const key = `#${id}`;
    if (tokens.shown.has(key)) return undefined;
    if (tokens.hidden.has(key)) hiding = key;
  }
  if (className !== undefined) {
    for (const token of className.split(/\s+/)) {
      if (token === '') continue;
      if (tokens.shown.has(token)) return undefined;
      if (hiding === undefined && tokens.hidden.has(token)) hiding = token;
    }
  }
  return hiding;
}

/** True when `element` carries a token the page's styles hide and none they show. */
export function isHiddenByStyles(element: Element, tokens: HiddenStyleTokens): boolean {
  return hidingToken(element, tokens) !== undefined;
}

/** Elements hidden by one token, at least this many, are collapsed items of the content (see below). */
const collapsedItemCount = 3;

/**
 * The elements of `body` the page's own `<style>` rules hide (outermost only, not inside
 * non-content), or undefined when there are none or when they hold at least as much text as the
 * rest of the body: then the page's content is itself hidden until a script reveals it, and what
 * the styles hide says nothing about what a reader gets. Elements that one token hides three times
 * or more stay: repeated collapsed items (the answers of an accordion, the panels of tabs, a
 * "read more" part per item) are content a script opens one at a time, while what a page hides
 * once (a privacy dialog, a cookie banner, a newsletter box) is a widget.
 */
export function styleHiddenElements(document: Document, body: ParentNode): ReadonlySet<Element> | undefined {
  const tokens = hiddenStyleTokens(document);
  if (tokens === undefined) return undefined;
  const byToken = new Map<string, Element[]>();
  const visibleText = textLength(body, (element) => {
    const token = hidingToken(element, tokens);
    if (token === undefined) return false;
    const elements = byToken.get(token);
    if (elements === undefined) byToken.set(token, [element]);
    else elements.push(element);
    return true;
  });
  const hidden = new Set<Element>();
  let hiddenText = 0;
  for (const elements of byToken.values()) {
    if (elements.length >= collapsedItemCount) continue;
    for (const element of elements) {
      hidden.add(element);
      hiddenText += textLength(element, () => false);
    }
  }
  return hidden.size > 0 && hiddenText < visibleText ? hidden : undefined;
}

/** The trimmed text length under `root`, outside non-content and outside the elements `skip` answers true for. */
function textLength(root: ParentNode, skip: (element: Element) => boolean): number {
  let length = 0;
  const stack: AnyNode[] = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') length += (node as unknown as { data: string }).data.trim().length;
    else if (isTag(node) && !isNonContent(node) && !skip(node)) for (const child of node.children) stack.push(child);
  }
  return length;
}
