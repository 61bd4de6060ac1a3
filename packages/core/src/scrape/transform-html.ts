import render from 'dom-serializer';
import type { AnyNode, Document, Element } from 'domhandler';
import { extractLinks } from '../crawl/link-extract.js';
import { extractMainContentOf, type PageSource } from '../extract/main-content.js';
import { baseUrlOf, keepOnly, removeMatching, removeNonContent, resolveUrls } from '../html/clean-html.js';
import { pageHrefs } from '../html/page-hrefs.js';
import { extractMetadata, type PageMetadata } from '../html/metadata.js';
import { parseHtml } from '../html/parse-html.js';
import { boundMarkdown, boundMarkup, defaultPageLimits, type PageLimits } from '../html/page-limits.js';
import { htmlToMarkdown, type ElementRuleOverrides } from '../markdown/index.js';
import { blockedPageTemplate } from './blocked-page.js';
import { pageSignalsOf, type PageSignals } from './page-signals.js';

/**
 * HTML to formats, from one parse of the page. Pure and synchronous, with plain-data input and
 * output, so it can run in a worker thread (see the HtmlTransformer port).
 *
 *   rawHtml -> cut at a limit (page-limits.ts) -> parse -> metadata, links (whole page)
 *           -> includeTags -> excludeTags -> onlyMainContent -> strip non-content -> absolute URLs
 *           -> html (serialised), markdown (same tree)
 */
export interface HtmlTransformInput {
  html: string;
  /** The final URL of the page; relative URLs resolve against it (or `<base href>`). */
  url: string;
  onlyMainContent: boolean;
  includeTags: string[];
  excludeTags: string[];
  removeBase64Images: boolean;
  want: { markdown: boolean; html: boolean; links: boolean; images: boolean; signals?: boolean };
  /** The HTTP status of the page, for the blocked-page templates (with `want.signals`). */
  status?: number;
  /** What the page may hold (default `defaultPageLimits`); past a limit the first part is converted, with a `warning`. */
  limits?: PageLimits;
}

export interface HtmlTransformOutput {
  markdown?: string;
  html?: string;
  links?: string[];
  images?: string[];
  metadata: PageMetadata;
  /** True when onlyMainContent found too little and the whole page was used instead. */
  usedWholePage: boolean;
  /** With `want.signals`: what the engine waterfall judges the page by (script-rendered, blocked). */
  signals?: PageSignals;
  blocked?: { name: string; vendor: string };
  /** Set when the page passed a limit (`PageLimits`): which one, and how much of it was converted. */
  warning?: string;
}

/** `elementRules` (functions, so not part of the plain-data input) change the markdown of elements. */
export function transformHtml(given: HtmlTransformInput, elementRules?: ElementRuleOverrides): HtmlTransformOutput {
  const limits = given.limits ?? defaultPageLimits;
  // Past a limit, everything below (the parse, metadata, links, both passes) reads the first part.
  const bounded = boundMarkup(given.html, limits);
  const input = bounded.warning ? { ...given, html: bounded.html } : given;
  // The parsed page stays in a box, never in a local of this call, so that main content can take
  // it over (see `PageSource`).
  const { parsed, output, baseUrl, knownUrls } = parsePage(input);
  if (bounded.warning) output.warning = bounded.warning;
  if (!input.want.markdown && !input.want.html && !input.want.images) return output;

  let content = cleanContent(parsed, input, input.onlyMainContent, baseUrl, knownUrls);
  const toMarkdown = (root: AnyNode) =>
    htmlToMarkdown(root, { baseUrl, removeBase64Images: input.removeBase64Images, ...(elementRules ? { elementRules } : {}) });
  let markdown = input.want.markdown || input.onlyMainContent ? toMarkdown(content.root) : undefined;
  if (input.onlyMainContent && (content.isFallback || !markdown?.trim())) {
    output.usedWholePage = true;
    if (!markdown?.trim()) {
      // Main-content extraction found nothing worth keeping: answer with the whole page instead.
      content = cleanContent({ document: parseHtml(input.html) }, input, false, baseUrl, knownUrls);
      markdown = toMarkdown(content.root);
    }
  }
  if (input.want.markdown) {
    const written = boundMarkdown(markdown ?? toMarkdown(content.root), limits);
    output.markdown = written.markdown;
    if (written.warning) output.warning = output.warning ? `${output.warning} ${written.warning}` : written.warning;
  }
  if (input.want.html) output.html = render(content.root.children, { encodeEntities: 'utf8' });
  if (input.want.images) output.images = collectImages(content.root.children);
  return output;
}

/**
 * The parsed page, and what is read from it before cleaning: metadata, base URL, signals, links.
 * `knownUrls`: the links' hrefs with their absolute URLs, when they resolved against the same base
 * as the content's will (no `<base href>`): the content's links are mostly the page's.
 */
function parsePage(input: HtmlTransformInput): { parsed: PageSource; output: HtmlTransformOutput; baseUrl: string; knownUrls?: Map<string, string> } {
  const document = parseHtml(input.html);
  const metadata = extractMetadata(document, input.url);
  const hrefs = pageHrefs(document);
  const baseUrl = baseUrlOf(document, input.url, hrefs);
  const output: HtmlTransformOutput = { metadata, usedWholePage: !input.onlyMainContent };
  if (input.want.signals) {
    output.signals = pageSignalsOf(document);
    const blocked = blockedPageTemplate({ status: input.status ?? 200, signals: output.signals, html: input.html });
    if (blocked) output.blocked = blocked;
  }
  if (!input.want.links) return { parsed: { document }, output, baseUrl };
  const knownUrls = hrefs.baseHref === undefined ? new Map<string, string>() : undefined;
  output.links = extractLinks(document, input.url, hrefs, knownUrls);
  return { parsed: { document }, output, baseUrl, ...(knownUrls ? { knownUrls } : {}) };
}

/** The part of the page kept by include/exclude tags, taken out of `parsed`. */
function selectedPage(parsed: PageSource, select: (document: Document) => Document): PageSource {
  const document = select(parsed.document!);
  parsed.document = undefined;
  return { document };
}

/** Takes the parsed page out of `parsed` (the caller keeps no reference to it). */
function cleanContent(
  parsed: PageSource,
  input: HtmlTransformInput,
  onlyMainContent: boolean,
  baseUrl: string,
  knownUrls: ReadonlyMap<string, string> | undefined,
) {
  const select = (document: Document): Document => {
    const root = input.includeTags.length > 0 ? keepOnly(document, input.includeTags) : document;
    if (input.excludeTags.length > 0) removeMatching(root, input.excludeTags);
    return root;
  };
  const source = selectedPage(parsed, select);
  // Main content works on the parsed page itself instead of a copy and parses it again only if a
  // second pass needs it. A large page's tree (~10 bytes per character) is then not live twice, and
  // any page saves its copy (~a quarter of a parse): a second pass is rare now that the retry
  // without class names is skipped when no name mattered (`extractFrom`): 2 retries and 326
  // whole-page fallbacks in cmake-doc's 1,936 pages, 73 and 30 in postgresql-doc-15's 1,169
  // (issue 14, eleventh pass: cmake-doc -5 to -9 % CPU per page, postgresql-doc-15 -0 to -1 %).
  source.reload = () => select(parseHtml(input.html));
  let root: Document;
  let isFallback = false;
  if (onlyMainContent) {
    const main = extractMainContentOf(source);
    root = main.document;
    isFallback = main.isFallback;
  } else root = source.document!;
  removeNonContent(root);
  resolveUrls(root, baseUrl, knownUrls);
  return { root, isFallback };
}

function collectImages(nodes: AnyNode[], out: string[] = [], seen = new Set<string>()): string[] {
  for (const node of nodes) {
    if (node.type !== 'tag') continue;
    const element = node as Element;
    const src = element.name === 'img' ? element.attribs.src : undefined;
    if (src && /^https?:/i.test(src) && !seen.has(src)) {
      seen.add(src);
      out.push(src);
    }
    collectImages(element.children, out, seen);
  }
  return out;
}
