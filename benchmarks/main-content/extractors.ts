/**
 * The two pipelines compared, each from the page's HTML string to markdown:
 * Quarry (htmlparser2 parse -> extractMainContent -> Quarry's htmlToMarkdown) and the peer
 * (linkedom parse -> @mozilla/readability -> turndown with the GFM plugin).
 */
import { existsSync } from 'node:fs';
import { Readability } from '@mozilla/readability';
import render from 'dom-serializer';
import { type AnyNode, type Element, isTag } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { parseHTML } from 'linkedom';
// @ts-expect-error turndown ships no types (and @types/turndown is not a dependency); typed below
import TurndownServiceUntyped from 'turndown';
// @ts-expect-error turndown-plugin-gfm ships no types
import { gfm } from 'turndown-plugin-gfm';
import { extractMainContent } from '../../packages/core/src/extract/index.js';

export interface Extraction {
  markdown: string;
  /** Milliseconds from HTML string to markdown (parse + extract + convert). */
  ms: number;
  /** Milliseconds of the extraction step alone (`extractMainContent`; `Readability.parse`). */
  extractMs: number;
  isFallback?: boolean;
}

export type Extractor = (html: string, url: string) => Extraction;

/** The part of turndown's API this benchmark uses. */
interface TurndownService {
  use(plugin: unknown): TurndownService;
  turndown(html: string): string;
}
const TurndownService = TurndownServiceUntyped as new (options: Record<string, string>) => TurndownService;

function makeTurndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.use(gfm);
  return service;
}

const turndown = makeTurndown();

type ToMarkdown = (nodes: AnyNode[], baseUrl: string) => string;

const quarryMarkdownPath = new URL('../../packages/core/src/markdown/index.ts', import.meta.url).pathname;

/** Quarry's converter when it exists in the tree, else turndown on the serialised tree (interim). */
export async function loadQuarryMarkdown(): Promise<{ name: string; toMarkdown: ToMarkdown }> {
  if (existsSync(quarryMarkdownPath)) {
    const module = (await import(quarryMarkdownPath)) as {
      htmlToMarkdown?: (input: AnyNode[], options: { baseUrl?: string }) => string;
    };
    const { htmlToMarkdown } = module;
    if (htmlToMarkdown) {
      return { name: 'quarry htmlToMarkdown', toMarkdown: (nodes, baseUrl) => htmlToMarkdown(nodes, { baseUrl }) };
    }
  }
  return { name: 'turndown (interim)', toMarkdown: (nodes) => turndown.turndown(render(nodes)) };
}

/** `postFilter`: an experiment's step on the content's root after the extraction (not on a fallback), timed with it. */
export function quarryExtractor(toMarkdown: ToMarkdown, postFilter?: (root: Element) => unknown): Extractor {
  return (html, url) => {
    const start = performance.now();
    const document = parseDocument(html);
    const extractStart = performance.now();
    const result = extractMainContent(document, { url });
    const root = result.document.children[0];
    if (postFilter && !result.isFallback && root && isTag(root)) postFilter(root);
    const extractMs = performance.now() - extractStart;
    const markdown = toMarkdown(result.document.children, url);
    return { markdown, ms: performance.now() - start, extractMs, isFallback: result.isFallback };
  };
}

export const readabilityExtractor: Extractor = (html) => {
  const start = performance.now();
  const { document } = parseHTML(html);
  const extractStart = performance.now();
  let content = '';
  try {
    const readable = document as unknown as ConstructorParameters<typeof Readability>[0];
    content = new Readability(readable).parse()?.content ?? '';
  } catch {
    content = '';
  }
  const extractMs = performance.now() - extractStart;
  const markdown = content ? turndown.turndown(content) : '';
  return { markdown, ms: performance.now() - start, extractMs };
};
