import { isTag, isText, type ChildNode, type Document } from 'domhandler';
import { DepthBoundParser } from '../html/bounded-parser.js';

/**
 * What a page looks like to a reader, measured in one streaming pass (no tree is built): its
 * title, the amount and start of its visible text, how much script it carries, what its
 * `<noscript>` says, and whether an app root (`#root`, `#app`, `#__next`...) was left empty.
 * script-rendered.ts and blocked-page.ts decide from these numbers.
 */
export interface PageSignals {
  title: string;
  /** Characters of visible text (whitespace runs count as one). */
  textLength: number;
  /** The first `textSampleLength` characters of visible text, whitespace collapsed. */
  text: string;
  /** Bytes of inline `<script>` code (JSON data blocks included). */
  inlineScriptBytes: number;
  /** `<script src>` elements. */
  externalScripts: number;
  /** Text inside `<noscript>`, whitespace collapsed. */
  noscriptText: string;
  /** App roots present in the page, and those that had no content at all. */
  appRoots: string[];
  emptyAppRoots: string[];
}

export const textSampleLength = 4_000;

const spaceRuns = /[ \n\t\r\u00a0]+/g;
/** Whitespace runs of two or more characters; `countText` subtracts all but one of each. */
const longSpaceRuns = /[ \n\t\r\u00a0]{2,}/g;
const notSpace = /[^ \n\t\r\u00a0]/;
const lowSurrogate = /[\udc00-\udfff]/;
/** The characters counted as whitespace (a run of them is one visible character). */
const isSpaceCode = (code: number): boolean => code === 32 || code === 10 || code === 9 || code === 13 || code === 0xa0;

const appRootIds = new Set(['root', 'app', '__next', '__nuxt', 'svelte', 'app-root', 'main-app', 'react-root', 'ember-app', 'q-app']);
const appRootTags = new Set(['app-root']);
/** Elements whose text a reader never sees. */
const hiddenTextTags = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'title', 'iframe', 'object']);

interface OpenRoot {
  name: string;
  depth: number;
  hasContent: boolean;
}

/** The same three events the streaming parser and a walk of a parsed tree produce. */
interface SignalEvents {
  onopentag(name: string, attributes: Record<string, string>): void;
  ontext(text: string): void;
  onclosetag(name: string): void;
  finish(): PageSignals;
}

/** Signals of an HTML string, in one streaming pass (no tree is built). */
export function pageSignals(html: string): PageSignals {
  const collector = signalCollector();
  const parser = new DepthBoundParser(collector, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.end(html);
  return collector.finish();
}

/**
 * Signals of a page already parsed by `parseHtml` (same parser, same options), before anything
 * changed the tree: what transformHtml computes in the worker thread, so the main thread does not
 * parse the page a second time.
 */
export function pageSignalsOf(document: Document): PageSignals {
  const collector = signalCollector();
  walkSignals(document.children, collector);
  return collector.finish();
}

/**
 * The events of a parsed tree, in document order. One function for every page (not a closure made
 * per call), walked with an index loop: it runs on every page a crawl converts.
 */
function walkSignals(nodes: ChildNode[], collector: SignalEvents): void {
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (isText(node)) collector.ontext(node.data);
    else if (isTag(node)) {
      collector.onopentag(node.name, node.attribs);
      walkSignals(node.children, collector);
      collector.onclosetag(node.name);
    }
  }
}

function signalCollector(): SignalEvents {
  return new SignalCollector();
}

/**
 * A class rather than closures made per page: its methods are one function each for every page, so
 * the optimizing compiler compiles them once (closures made per call were compiled up to 5 times per
 * crawl, `--trace-opt`). htmlparser2 calls them on the object (`this` is kept).
 */
class SignalCollector implements SignalEvents {
  private readonly signals: PageSignals = {
    title: '',
    textLength: 0,
    text: '',
    inlineScriptBytes: 0,
    externalScripts: 0,
    noscriptText: '',
    appRoots: [],
    emptyAppRoots: [],
  };
  private readonly stack: string[] = [];
  private readonly roots: OpenRoot[] = [];
  private hiddenDepth = 0;
  private noscriptDepth = 0;
  /** Open app roots with no content yet. */
  private rootsWaiting = 0;
  private lastWasSpace = true;
  private sample = '';
  private noscript = '';
  private title = '';

  private markRootsFilled(): void {
    for (const root of this.roots) root.hasContent = true;
    this.rootsWaiting = 0;
  }

  /**
   * Adds `text`'s visible characters to `textLength` (a whitespace run counts once, and not at all
   * right after whitespace; the second half of a surrogate pair not at all) and says whether it has
   * any but whitespace. Runs of two or more are found by a regular expression, which scans in native
   * code: a loop over every character took ~3x as long on DocBook pages (6,700 characters each), and
   * this walk runs on every page a crawl converts. Text holding a low surrogate takes the loop.
   */
  private countText(text: string): boolean {
    if (lowSurrogate.test(text)) return this.countTextByCharacter(text);
    let count = text.length;
    longSpaceRuns.lastIndex = 0;
    for (let run = longSpaceRuns.exec(text); run !== null; run = longSpaceRuns.exec(text)) count -= run[0].length - 1;
    if (this.lastWasSpace && isSpaceCode(text.charCodeAt(0))) count--;
    this.lastWasSpace = isSpaceCode(text.charCodeAt(text.length - 1));
    this.signals.textLength += count;
    return notSpace.test(text);
  }

  /** `countText` one character at a time (counted with charCodeAt: iterating would allocate a string per character). */
  private countTextByCharacter(text: string): boolean {
    let hasText = false;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 0xdc00 && code <= 0xdfff) continue; // the second half of a pair counts once
      const isSpace = isSpaceCode(code);
      if (isSpace && this.lastWasSpace) continue;
      if (!isSpace) hasText = true;
      this.lastWasSpace = isSpace;
      this.signals.textLength++;
    }
    return hasText;
  }

  onopentag(name: string, attributes: Record<string, string>): void {
    if (this.rootsWaiting > 0) this.markRootsFilled();
    const rootName = appRootTags.has(name) ? name : attributes.id && appRootIds.has(attributes.id) ? `#${attributes.id}` : undefined;
    this.stack.push(name);
    if (rootName && !this.roots.some((root) => root.name === rootName)) {
      this.signals.appRoots.push(rootName);
      this.roots.push({ name: rootName, depth: this.stack.length, hasContent: false });
      this.rootsWaiting++;
    }
    if (name === 'script' && attributes.src) this.signals.externalScripts++;
    if (hiddenTextTags.has(name)) this.hiddenDepth++;
    if (name === 'noscript') this.noscriptDepth++;
  }

  ontext(text: string): void {
    const current = this.stack[this.stack.length - 1];
    if (current === 'script') this.signals.inlineScriptBytes += text.length;
    if (current === 'title' && this.stack.includes('head')) this.title += text;
    if (this.noscriptDepth > 0) this.noscript += text;
    if (this.hiddenDepth > 0) return;
    const wasSpace = this.lastWasSpace;
    const hasText = text.length > 0 && this.countText(text);
    if (hasText && this.rootsWaiting > 0) this.markRootsFilled();
    if (!hasText) {
      if (!wasSpace && text.length > 0 && this.sample.length < textSampleLength) this.sample += ' ';
    } else if (this.sample.length < textSampleLength) {
      const collapsed = text.replace(spaceRuns, ' ');
      this.sample += (wasSpace && collapsed.startsWith(' ') ? collapsed.slice(1) : collapsed).slice(0, textSampleLength - this.sample.length);
    }
  }

  onclosetag(name: string): void {
    if (hiddenTextTags.has(name) && this.hiddenDepth > 0) this.hiddenDepth--;
    if (name === 'noscript' && this.noscriptDepth > 0) this.noscriptDepth--;
    const depth = this.stack.length;
    const root = this.roots[this.roots.length - 1];
    if (root && root.depth === depth) {
      this.roots.pop();
      if (!root.hasContent) {
        this.signals.emptyAppRoots.push(root.name);
        this.rootsWaiting--;
      }
    }
    this.stack.pop();
  }

  finish(): PageSignals {
    const signals = this.signals;
    for (const root of this.roots) if (!root.hasContent) signals.emptyAppRoots.push(root.name);
    signals.text = this.sample.trim();
    signals.textLength = signals.text.length === 0 ? 0 : signals.textLength;
    signals.title = this.title.replace(/\s+/g, ' ').trim();
    signals.noscriptText = this.noscript.replace(/\s+/g, ' ').trim();
    return signals;
  }
}
