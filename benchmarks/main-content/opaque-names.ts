/**
 * `--opaque-names`: the page as a site whose class and id names mean nothing to the extractors.
 * Every class token and every id is replaced by a meaningless name (`u1`, `u2`, ...), the same
 * token by the same name within a page, so the structure they mark (repeated template blocks of one
 * class) stays and only their words go. The extractors' word lists were tuned on these dev pages;
 * an unseen site's names are words those lists have never met (or opaque hashes, as CSS-in-JS
 * writes them), so this is a proxy for unseen sites read on the dev pages. Applied to the HTML
 * before either pipeline runs (outside the timings).
 */
import render from 'dom-serializer';
import { type AnyNode, isTag } from 'domhandler';
import { parseDocument } from 'htmlparser2';

export function withOpaqueNames(html: string): string {
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
  const stack: AnyNode[] = [...document.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    const { attribs } = node;
    if (attribs.class !== undefined) attribs.class = attribs.class.split(/\s+/).filter(Boolean).map(opaque).join(' ');
    if (attribs.id !== undefined) attribs.id = opaque(`#${attribs.id}`);
    stack.push(...node.children);
  }
  return render(document, { decodeEntities: false });
}
