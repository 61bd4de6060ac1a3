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
import type { GeneratedParts } from './rst.js';

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

function textOf(node: AnyNode): string {
  if (isText(node)) return node.data;
  if (!isTag(node)) return '';
  return node.children.map(textOf).join(' ');
}

function isGeneratedObject(element: Element, parts: GeneratedParts): boolean {
  if (element.name !== 'dl') return false;
  const term = element.children.find((child): child is Element => isTag(child) && child.name === 'dt');
  const id = term?.attribs.id;
  if (!id) return false;
  return parts.objects.some((name) => id === name || id.endsWith(`.${name}`)) || parts.modules.some((module) => id.startsWith(`${module}.`));
}

export function generatedText(html: string, parts: GeneratedParts): string {
  const patterns = [...parts.regions].map((region) => regionClasses[region]).filter((pattern): pattern is RegExp => pattern !== undefined);
  patterns.push(alwaysGenerated);
  const found: string[] = [];
  const walk = (node: AnyNode): void => {
    if (!isTag(node)) return;
    const className = node.attribs.class ?? '';
    if (patterns.some((pattern) => pattern.test(className)) || isGeneratedObject(node, parts)) {
      found.push(textOf(node));
      return;
    }
    node.children.forEach(walk);
  };
  parseDocument(html, { decodeEntities: true }).children.forEach(walk);
  return found.join('\n');
}
