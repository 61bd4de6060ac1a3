import { isTag, type AnyNode, type Element } from 'domhandler';
import { limitDepth } from '../html/parse-html.js';
import { parseBoundedDocument } from '../html/bounded-parser.js';
import { withElementRules, type ElementRuleOverrides } from './element-rules.js';
import { MarkdownConverter } from './markdown-converter.js';
import { createUrlResolver, parseBaseUrl } from './url-resolver.js';

export interface MarkdownOptions {
  /** Absolute URL the page came from; relative links/images are resolved against <base href> (if present in the given tree) or this. */
  baseUrl?: string;
  /** Replace data: URI images with `![alt](<Base64-Image-Removed>)` (default true). */
  removeBase64Images?: boolean;
  /** Rules that add to, replace or remove (`null`) rules of ELEMENT_RULES, per tag: `{ mark: (el, c) => c.renderWrapped(el, '==', '==') }`. */
  elementRules?: ElementRuleOverrides;
}

const DEFAULT_REMOVE_BASE64_IMAGES = true;

/**
 * Converts an HTML string or a domhandler node (Document, Element, or array of nodes) to
 * GitHub-flavoured markdown. Pure and synchronous.
 *
 * ```
 * string --parseBoundedDocument--> domhandler tree --MarkdownConverter.walkNodes--> rules[tag] | text
 *   --> MarkdownWriter (paragraph buffer -> container-prefixed lines) --> markdown
 * ```
 *
 * `rules` is ELEMENT_RULES with `options.elementRules` applied. One walk over the tree: block elements become blocks separated by at most one blank line, inline
 * text is whitespace-collapsed like a browser renders it and escaped only where markdown would
 * misread it; links and images are made absolute. Hidden elements, scripts, styles, media and form
 * controls are left out. Returns `''` for a tree without visible content; never throws for
 * malformed HTML.
 */
export function htmlToMarkdown(input: string | AnyNode | AnyNode[], options: MarkdownOptions = {}): string {
  const nodes: readonly AnyNode[] =
    typeof input === 'string' ? [limitDepth(parseBoundedDocument(input, { decodeEntities: true }))] : Array.isArray(input) ? input : [input];
  const base = parseBaseUrl(options.baseUrl, nodes[0] === undefined ? undefined : findBaseHref(nodes[0]));
  const converter = new MarkdownConverter({
    rules: withElementRules(options.elementRules),
    resolveUrl: createUrlResolver(base),
    removeBase64Images: options.removeBase64Images ?? DEFAULT_REMOVE_BASE64_IMAGES,
  });
  converter.walkNodes(nodes);
  return converter.writer.finish();
}

/** The `href` of the first `<base>` in the head of the document that holds `node`. */
function findBaseHref(node: AnyNode): string | undefined {
  let root: AnyNode = node;
  while (root.parent !== null) root = root.parent;
  const search = (children: readonly AnyNode[]): string | undefined => {
    for (const child of children) {
      if (!isTag(child)) continue;
      if (child.name === 'base' && child.attribs.href !== undefined) return child.attribs.href;
      if (child.name === 'html' || child.name === 'head') {
        const found = search((child as Element).children);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return 'children' in root ? search(root.children) : undefined;
}
