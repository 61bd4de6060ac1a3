import type { Element, Node } from 'domhandler';
import { isTag } from 'domhandler';
import { parseBoundedDocument } from '../html/bounded-parser.js';

/** XML of an office file as a tree (htmlparser2 in XML mode: names keep their prefix, e.g. `a:t`). */
export function parseXml(xml: string): Element[] {
  return parseBoundedDocument(xml, { xmlMode: true }).children.filter(isTag);
}

/** Every element named `name` under `nodes`, in document order. */
export function descendants(nodes: Node[], name: string): Element[] {
  const found: Element[] = [];
  const walk = (list: Node[]) => {
    for (const node of list) {
      if (!isTag(node)) continue;
      if (node.name === name) found.push(node);
      walk(node.children);
    }
  };
  walk(nodes);
  return found;
}

export function children(node: Element, name: string): Element[] {
  return node.children.filter((child): child is Element => isTag(child) && child.name === name);
}

/** The text of the `textNames` elements under `node`, joined. */
export function textOf(node: Element, textNames: readonly string[]): string {
  let text = '';
  const walk = (list: Node[]) => {
    for (const child of list) {
      if (child.type === 'text' && isTag(child.parent as Node) && textNames.includes((child.parent as Element).name))
        text += (child as unknown as { data: string }).data;
      else if (isTag(child)) walk(child.children);
    }
  };
  walk([node]);
  return text;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
