/**
 * `--opaque-names`: the page as a site whose class and id names mean nothing to the extractors.
 * Every class token and every id is replaced by a meaningless name (`u1`, `u2`, ...), the same
 * token by the same name within a page, so the structure they mark (repeated template blocks of one
 * class) stays and only their words go. The extractors' word lists were tuned on these dev pages;
 * an unseen site's names are words those lists have never met (or opaque hashes, as CSS-in-JS
 * writes them), so this is a proxy for unseen sites read on the dev pages. Applied to the HTML
 * before either pipeline runs (outside the timings).
 *
 * The docs-pages benchmark asks two things more (`OpaqueOptions`): references to an id stay
 * consistent (an in-page link, a label's `for`, an ARIA relation name the renamed id; `<a name>` is
 * an id too), and code-language tokens stay (`language-*`, `lang-*`: the HTML standard's way to say
 * a code block's language, semantics rather than a site's name). Tag names, `role`, `rel` and
 * `aria-*` values other than id references are never touched.
 */
import render from 'dom-serializer';
import { type AnyNode, type Element, type Text, isTag } from 'domhandler';
import { parseDocument } from 'htmlparser2';

export interface OpaqueOptions {
  /** Attributes naming an id (`href="#x"`, `for`, `headers`, `aria-labelledby`...) name its opaque name; `<a name>` is renamed as an id. */
  references?: boolean;
  /** Class tokens `language-*` and `lang-*` (a code block's language) are kept as written. */
  keepCodeLanguage?: boolean;
}

export interface OpaquePage {
  html: string;
  /** Markdown's in-page link targets (`](#u7)`) back to the ids they name, so links score as on the named page. */
  restore: (markdown: string) => string;
}

/** Attributes whose value is a space-separated list of ids (HTML and WAI-ARIA id references). */
const idListAttributes = [
  'for',
  'headers',
  'list',
  'form',
  'aria-labelledby',
  'aria-describedby',
  'aria-controls',
  'aria-owns',
  'aria-activedescendant',
  'aria-details',
  'aria-errormessage',
  'aria-flowto',
];

const codeLanguagePattern = /^(?:language|lang)-./i;

export function opaquePage(html: string, options: OpaqueOptions = {}): OpaquePage {
  const document = parseDocument(html, { decodeEntities: false });
  const names = new Map<string, string>();
  const opaque = (token: string): string => {
    let name = names.get(token);
    if (name === undefined) {
      name = `u${names.size + 1}`;
      names.set(token, name);
    }
    return name;
  };
  const classToken = (token: string): string => (options.keepCodeLanguage && codeLanguagePattern.test(token) ? token : opaque(token));
  const stack: AnyNode[] = [...document.children];
  const styles: Element[] = [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (node.name === 'style') styles.push(node);
    const { attribs } = node;
    if (attribs.class !== undefined) attribs.class = attribs.class.split(/\s+/).filter(Boolean).map(classToken).join(' ');
    if (attribs.id !== undefined) attribs.id = opaque(`#${attribs.id}`);
    if (options.references) {
      if (node.name === 'a' && attribs.name !== undefined) attribs.name = opaque(`#${attribs.name}`);
      const href = attribs.href;
      if (href?.startsWith('#') && href.length > 1) attribs.href = `#${opaque(`#${safeDecode(href.slice(1))}`)}`;
      for (const attribute of idListAttributes) {
        const value = attribs[attribute];
        if (value !== undefined)
          attribs[attribute] = value
            .split(/\s+/)
            .filter(Boolean)
            .map((id) => opaque(`#${id}`))
            .join(' ');
      }
    }
    stack.push(...node.children);
  }
  // After the attributes, so a token keeps the name the attribute walk gave it (and main's
  // numbering is unchanged); a token named only in a stylesheet gets a new name.
  for (const style of styles) {
    for (const child of style.children) {
      if (child.type === 'text') {
        const text = child as Text;
        text.data = renameSelectors(text.data, (kind, token) => (kind === '#' ? opaque(`#${token}`) : classToken(token)));
      }
    }
  }
  const ids = new Map<string, string>();
  for (const [token, name] of names) if (token.startsWith('#')) ids.set(name, token.slice(1));
  const restore = (markdown: string): string =>
    markdown.replace(/#(u\d+)(?=[)\s>"'])/g, (match, name: string) => {
      const id = ids.get(name);
      return id === undefined ? match : `#${encodeURI(id).replace(/[()]/g, (paren) => (paren === '(' ? '%28' : '%29'))}`;
    });
  return { html: render(document, { decodeEntities: false }), restore };
}

const selectorTokenPattern = /([.#])((?:[\w-]|\\.|[^\x00-\x7f])+)/g;

/**
 * A stylesheet with the class and id tokens of its selectors renamed (escapes undone first:
 * `.md\:block` names the class `md:block`), declarations (`color: #fff`) and at-rule preludes
 * (`@media (min-width: 40.5em)`) as written, nested `@media`/`@supports` blocks renamed inside.
 * Comments are dropped. Attribute selectors' values are not told apart (`[href$=".pdf"]` renames
 * `pdf`): harmless, no rule reads them.
 */
export function renameSelectors(css: string, rename: (kind: string, token: string) => string): string {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, ' ');
  const read = (start: number, end: number): string => {
    let out = '';
    let position = start;
    while (position < end) {
      const open = text.indexOf('{', position);
      if (open < 0 || open >= end) return out + text.slice(position, end);
      let depth = 0;
      let close = end;
      for (let index = open; index < end; index++) {
        const char = text[index];
        if (char === '{') depth++;
        else if (char === '}' && --depth === 0) {
          close = index;
          break;
        }
      }
      const prelude = text.slice(position, open);
      if (prelude.trim().startsWith('@')) {
        const nested = /^\s*@(?:media|supports|layer|container|document)\b/i.test(prelude);
        out += prelude + (nested ? `{${read(open + 1, close)}}` : text.slice(open, close + 1));
      } else {
        const renamed = prelude.replace(selectorTokenPattern, (_match, kind: string, token: string) => {
          return `${kind}${rename(kind, token.replace(/\\(.)/g, '$1'))}`;
        });
        out += `${renamed}${text.slice(open, close + 1)}`;
      }
      position = close + 1;
    }
    return out;
  };
  return read(0, text.length);
}

/** A fragment as the id it names (`#caf%C3%A9` names `café`); a malformed escape is kept as written. */
function safeDecode(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

/** The page with class tokens and ids made meaningless (as the article benchmark has run it). */
export function withOpaqueNames(html: string, options: OpaqueOptions = {}): string {
  return opaquePage(html, options).html;
}
