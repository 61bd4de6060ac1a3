/**
 * The text of a Sphinx page that the build generated and its `.rst` source cannot state, found in
 * the page's HTML from what the source names (`GeneratedParts`): the object description (`<dl>`)
 * whose `<dt id>` is an autodoc directive's object (or a member of an automodule's module), and the
 * regions of generating directives (ipython sessions with their output, autosummary tables, toctree
 * entries, the hazmat warning, jupyter-execute cells), and viewcode's "[source]" links. The scorer excuses this text on both
 * extractors alike (`shingleCounts`' `excused`): kept or dropped, it neither costs nor earns.
 */
import { type AnyNode, type Element, isTag, isText } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { shingleBreak } from '../main-content/metrics.js';
import { canonical, type GeneratedParts, type RstTruth, sectionTitle } from './rst.js';
import { featuresOfHtml } from './score.js';

/** HTML classes of each generated region, by the directive that writes it. */
const regionClasses: Record<string, RegExp> = {
  ipython: /(?:^|\s)highlight-ipython\d*(?:\s|$)/,
  autosummary: /(?:^|\s)autosummary(?:\s|$)/,
  toctree: /(?:^|\s)toctree-wrapper(?:\s|$)/,
  hazmat: /(?:^|\s)danger(?:\s|$)/,
  'jupyter-execute': /(?:^|\s)(?:jupyter_cell|cell_output)(?:\s|$)/,
};
/** viewcode's "[source]" beside an object: written by the extension on every page that has one. */
const alwaysGenerated = /(?:^|\s)viewcode-link(?:\s|$)/;

/** Elements that break the text flow: their text stands apart from its neighbours' (inline ones join). */
const blockElements: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'caption',
  'dd',
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
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

/** The text a reader sees: inline elements join their neighbours ("val" + "python:str"), blocks stand apart. */
function textOf(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!isTag(node)) return '';
  const inner = node.children.map(textOf).join('');
  return blockElements.has(node.name) ? ` ${inner} ` : inner;
}

/** Words as the shingle score counts them (metrics.ts's tokens). */
const words = (text: string): string[] => text.match(/[\p{L}\p{N}_]+/gu) ?? [];
/**
 * Words of the page text on each side of a generated region that are excused with it: a shingle
 * spanning the junction (the title before an autodoc object and the object's first words) is in
 * neither the source nor the region, and the markdown has no mark where the region began.
 */
const junctionWords = 3;

function isGeneratedObject(element: Element, parts: GeneratedParts): boolean {
  if (element.name !== 'dl') return false;
  const term = element.children.find((child): child is Element => isTag(child) && child.name === 'dt');
  const id = term?.attribs.id;
  if (!id) return false;
  return parts.objects.some((name) => id === name || id.endsWith(`.${name}`)) || parts.modules.some((module) => id.startsWith(`${module}.`));
}

/** The external link an extension role over a number became (`GH45637` to `.../issues/45637`). */
function isNumberedLink(element: Element, parts: GeneratedParts): boolean {
  if (element.name !== 'a' || parts.numbered.length === 0 || !/(?:^|\s)external(?:\s|$)/.test(element.attribs.class ?? '')) return false;
  const number = /(\d+)\/?$/.exec(element.attribs.href ?? '')?.[1];
  return number !== undefined && parts.numbered.includes(number);
}

/** `classes`: more generated regions, by class (another generator's, as `real-truth.ts` gives Node's). */
export function generatedText(html: string, parts: GeneratedParts, classes: readonly RegExp[] = []): string {
  const patterns = [...parts.regions].map((region) => regionClasses[region]).filter((pattern): pattern is RegExp => pattern !== undefined);
  patterns.push(alwaysGenerated, ...classes);
  // The page's text in order, as runs that are generated or not.
  const runs: { text: string; generated: boolean }[] = [];
  const walk = (node: AnyNode): void => {
    if (isText(node)) {
      runs.push({ text: node.data, generated: false });
      return;
    }
    if (!isTag(node) || node.name === 'head' || node.name === 'script' || node.name === 'style') return;
    const className = node.attribs.class ?? '';
    if (patterns.some((pattern) => pattern.test(className)) || isGeneratedObject(node, parts) || isNumberedLink(node, parts)) {
      runs.push({ text: textOf(node), generated: true });
      return;
    }
    const isBlock = blockElements.has(node.name);
    if (isBlock) runs.push({ text: ' ', generated: false });
    node.children.forEach(walk);
    if (isBlock) runs.push({ text: ' ', generated: false });
  };
  parseDocument(html, { decodeEntities: true }).children.forEach(walk);
  // Page text of fewer words than two junctions between two regions (a section title between two
  // autosummary tables) is excused with them: its shingles all span a junction.
  let lastGenerated = -1;
  runs.forEach((run, index) => {
    if (!run.generated) return;
    if (lastGenerated >= 0 && lastGenerated < index - 1) {
      const between = runs.slice(lastGenerated + 1, index);
      if (words(between.map((part) => part.text).join('')).length < 2 * junctionWords) for (const part of between) part.generated = true;
    }
    lastGenerated = index;
  });
  const found: string[] = [];
  runs.forEach((run, index) => {
    if (!run.generated) return;
    let before = '';
    for (let back = index - 1; back >= 0 && !runs[back]!.generated && words(before).length < junctionWords; back--) before = runs[back]!.text + before;
    let after = '';
    for (let ahead = index + 1; ahead < runs.length && !runs[ahead]!.generated && words(after).length < junctionWords; ahead++) after += runs[ahead]!.text;
    found.push([...words(before).slice(-junctionWords), run.text.replace(/\s+/g, ' ').trim(), ...words(after).slice(0, junctionWords)].join(' '));
  });
  return found.join('\n');
}

/** A section element of the build: docutils' `<section>` (HTML5 writer) or `<div class="section">`. */
function isSection(element: Element): boolean {
  return element.name === 'section' || (element.name === 'div' && /(?:^|\s)section(?:\s|$)/.test(element.attribs.class ?? ''));
}

/**
 * Sections the build wrote without their title: the first element inside, past empty `<span id>`
 * targets, is no heading (or there is none). pygame's build does this: a module page's title
 * becomes the term of a `<dl class="definition">`, and its tutorials' stacked titles become empty
 * sections.
 */
function untitledSections(html: string): number {
  let count = 0;
  const walk = (node: AnyNode): void => {
    if (!isTag(node)) return;
    if (isSection(node)) {
      const first = node.children.find((child): child is Element => isTag(child) && !(child.name === 'span' && child.children.length === 0));
      if (!first || !/^h[1-6]$/.test(first.name)) count++;
    }
    node.children.forEach(walk);
  };
  parseDocument(html, { decodeEntities: true }).children.forEach(walk);
  return count;
}

/**
 * The truth without the section titles the build does not show as headings: on a page with
 * untitled sections, as many of the source's titles (in source order) as there are such sections,
 * taken from those no heading of the page carries. A title whose words the page does not show at
 * all leaves the text too (a gap: the shingles around it are in neither). Both extractors are
 * scored against the same truth; a page whose every section has its heading is left as it is.
 */
export function withoutUnshownTitles(html: string, truth: RstTruth): RstTruth {
  let untitled = untitledSections(html);
  if (untitled === 0) return truth;
  const page = featuresOfHtml(html);
  const shown = new Set([...page.headings.keys()].map((key) => sectionTitle(key.replace(/^h\d /, ''))));
  const pageText = canonical(page.text);
  const headings = new Map(truth.headings);
  let text = truth.text;
  for (const [title, count] of truth.headings) {
    if (shown.has(title)) continue;
    const dropped = Math.min(count, untitled);
    untitled -= dropped;
    if (dropped === count) headings.delete(title);
    else headings.set(title, count - dropped);
    if (!pageText.includes(title)) text = text.replace(title, ` ${shingleBreak} `);
    if (untitled === 0) break;
  }
  return { ...truth, headings, text };
}
