import { hasChildren, isTag, isText, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { MarkdownWriter, type Separation } from './markdown-writer.js';
import { isSkippedElement } from './skip-rules.js';
import type { UrlResolver } from './url-resolver.js';
import { collapseWhitespace, isWhitespaceOnly } from './whitespace.js';

/** Markdown that is only images, linked or not. */
const ONLY_IMAGES = /^(?:\[?!\[[^\]]*\]\([^)\s]*\)(?:\]\([^)\s]*\))?\s*)+$/;

/** Renders one element (and usually its children) into the converter's writer. */
export type ElementRule = (element: Element, converter: MarkdownConverter) => void;

/** Tag name -> rule. Tags without a rule are inline containers (their children are walked). */
export type ElementRules = Readonly<Record<string, ElementRule>>;

export interface ConverterSettings {
  readonly rules: ElementRules;
  readonly resolveUrl: UrlResolver;
  readonly removeBase64Images: boolean;
}

/**
 * One conversion: walks a domhandler tree once, dispatching elements to rules and text to the
 * writer, and carries the inline context the rules consult (inside a link, a heading, emphasis).
 * Not reusable across documents; cheap to create.
 */
export class MarkdownConverter {
  writer = new MarkdownWriter();
  readonly settings: ConverterSettings;
  /** Separation between blocks here: 2 (blank line), or 1 inside items of a tight list. */
  blockSeparation: Separation = 2;
  /** > 0 inside links and headings, where blocks render inline, separated by spaces. */
  inlineOnly = 0;
  linkDepth = 0;
  headingDepth = 0;
  /** Open emphasis-like wrappers by marker (`*`, `**`, `~~`), so nesting never doubles markers. */
  readonly openMarkers = new Set<string>();

  constructor(settings: ConverterSettings) {
    this.settings = settings;
  }

  walkNodes(nodes: readonly AnyNode[]): void {
    for (let index = 0; index < nodes.length; index++) this.walkNode(nodes[index]!);
  }

  walkChildren(parent: ParentNode): void {
    this.walkNodes(parent.children);
  }

  walkNode(node: AnyNode): void {
    if (isText(node)) {
      const data = node.data;
      // Most text nodes of real pages are indentation between tags: a possible space, nothing else.
      if (isWhitespaceOnly(data)) this.writer.softBoundary();
      else this.writer.appendText(collapseWhitespace(data), this.linkDepth > 0);
    } else if (isTag(node)) {
      if (isSkippedElement(node)) return;
      const rule = this.settings.rules[node.name];
      if (rule === undefined) this.walkChildren(node);
      else rule(node, this);
    } else if (node.type === 'root' && hasChildren(node)) {
      this.walkChildren(node);
    }
  }

  /** Starts a block: flushes the paragraph and asks for a separation (inline-only: a space). */
  openBlock(separation: Separation = this.blockSeparation): void {
    if (this.inlineOnly > 0) {
      this.writer.softBoundary();
    } else {
      this.writer.flushParagraph();
      this.writer.separate(separation);
    }
  }

  /** Ends a block, like {@link openBlock}. */
  closeBlock(separation: Separation = this.blockSeparation): void {
    this.openBlock(separation);
  }

  /** Renders an element's children as a block of their own. */
  renderBlock(element: Element): void {
    this.openBlock();
    this.walkChildren(element);
    this.closeBlock();
  }

  /** Renders children inside `open` ... `close` markers (emphasis, strikethrough, `<sup>`). */
  renderWrapped(element: Element, open: string, close: string): void {
    if (this.openMarkers.has(open)) {
      this.walkChildren(element);
      return;
    }
    this.openMarkers.add(open);
    const mark = this.writer.mark();
    this.walkChildren(element);
    this.openMarkers.delete(open);
    // Bold or italic around nothing but images (`**![](a)**`) is noise.
    if (open !== close || !ONLY_IMAGES.test(this.writer.textSince(mark))) this.writer.wrapSince(mark, open, close);
  }

  /** Renders an element's children in a fresh table-cell writer; returns the cell's markdown. */
  renderCell(element: Element): string {
    const outer = this.writer;
    const outerSeparation = this.blockSeparation;
    const outerInlineOnly = this.inlineOnly;
    this.writer = new MarkdownWriter(true);
    this.blockSeparation = 1;
    this.inlineOnly = 0;
    this.walkChildren(element);
    const cell = this.writer.finish();
    this.writer = outer;
    this.blockSeparation = outerSeparation;
    this.inlineOnly = outerInlineOnly;
    return cell;
  }
}
