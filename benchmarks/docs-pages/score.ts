/**
 * Structure kept: the features of a page's ground truth (its bare GFM rendering) found again in
 * an extractor's markdown (rendered the same way). Each feature is a multiset of keys; a feature's
 * score is the share of expected keys found (recall), summed over pages. Text is the aeb shingle
 * F1 of the plain text, so chrome that leaks in costs precision.
 */
import { type Element, isTag, isText, type AnyNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

export const featureNames = ['headings', 'lists', 'tables', 'code', 'links', 'emphasis'] as const;
export type FeatureName = (typeof featureNames)[number];
export type Features = Record<FeatureName, Map<string, number>> & { text: string };

const baseUrl = 'https://docs.example.com/guide/page';

function normalize(text: string): string {
  return text
    .replace(/(?:\u200b|\u200c|\u200d|\ufeff)/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*[¶#]$/, '')
    .trim();
}

/** An image's file name given as its alt (docutils' default alt is the image's address): says nothing. */
const fileNameAlt = /\.(?:png|jpe?g|gif|svg|webp|bmp)$/i;

/**
 * Text as a reader gets it. With `readsImageAlt`, an image reads as its alt text when that is words
 * or a formula (Sphinx's imgmath writes each formula as a PNG whose alt is its LaTeX), not a file name.
 */
function textOf(node: AnyNode, readsImageAlt = false): string {
  if (isText(node)) return node.data;
  if (!isTag(node)) return '';
  if (node.name === 'br') return ' ';
  if (node.name === 'img') {
    const alt = node.attribs.alt?.trim() ?? '';
    return readsImageAlt && alt !== '' && !fileNameAlt.test(alt) ? ` ${alt} ` : '';
  }
  return node.children.map((child) => textOf(child, readsImageAlt)).join('');
}

export interface FeatureOptions {
  /** Read images' alt text into the plain text (the Sphinx score: its truth states formulas' LaTeX). */
  readsImageAlt?: boolean;
}

function add(map: Map<string, number>, key: string): void {
  if (key === '') return;
  map.set(key, (map.get(key) ?? 0) + 1);
}

function resolve(href: string): string {
  try {
    return new URL(href, baseUrl).href;
  } catch {
    return href;
  }
}

function entityDecode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** Names generators give a block with no language: the same as none. */
const plainLanguages: ReadonlySet<string> = new Set(['', 'text', 'txt', 'plaintext', 'plain', 'default', 'none']);

function languageOf(code: Element | undefined): string {
  return (/language-(\S+)/.exec(code?.attribs.class ?? '')?.[1] ?? '').toLowerCase();
}

/** Features of an HTML rendering (bare GFM or a markdown output rendered the same way). */
export function featuresOfHtml(html: string, options: FeatureOptions = {}): Features {
  const features: Features = {
    headings: new Map(),
    lists: new Map(),
    tables: new Map(),
    code: new Map(),
    links: new Map(),
    emphasis: new Map(),
    text: '',
  };
  const document = parseDocument(html, { decodeEntities: true });
  // `inPre`: under a code block, a `pre` is part of it, not a second block: gi-docgen writes
  // `pre > code > div.highlight > pre`, one block on the page, which was counted twice.
  const walk = (node: AnyNode, inPre = false): void => {
    if (!isTag(node)) return;
    const element = node as Element;
    const name = element.name;
    if (inPre && name === 'pre') {
      // Read as the block's text, nothing more.
    } else if (/^h[1-6]$/.test(name)) add(features.headings, `${name} ${normalize(textOf(element))}`);
    else if (name === 'li') add(features.lists, normalize(textOf(element)).slice(0, 200));
    else if (name === 'td' || name === 'th') add(features.tables, normalize(textOf(element)));
    else if (name === 'pre') {
      const code = element.children.find((child): child is Element => isTag(child) && child.name === 'code');
      const language = plainLanguages.has(languageOf(code)) ? '' : languageOf(code);
      add(features.code, `${language}\u0000${textOf(element).replace(/\n+$/, '')}`);
    } else if (name === 'a' && element.attribs.href) add(features.links, `${normalize(textOf(element))} -> ${resolve(element.attribs.href)}`);
    else if (name === 'em' || name === 'strong') add(features.emphasis, normalize(textOf(element)));
    for (const child of element.children) walk(child, inPre || name === 'pre');
  };
  for (const node of document.children) walk(node);
  features.text = normalize(entityDecode(document.children.map((node) => textOf(node, options.readsImageAlt)).join(' ')));
  return features;
}

export function featuresOfMarkdown(markdown: string, options: FeatureOptions = {}): Features {
  return featuresOfHtml(micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: false }), options);
}

export interface Counts {
  expected: number;
  found: number;
}

/** How many of the expected keys (with multiplicity) the output has. */
export function multisetRecall(expected: Map<string, number>, output: Map<string, number>): Counts {
  let total = 0;
  let found = 0;
  for (const [key, count] of expected) {
    total += count;
    found += Math.min(count, output.get(key) ?? 0);
  }
  return { expected: total, found };
}
