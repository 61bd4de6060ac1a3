import { isTag, isText, type ChildNode, type Document } from 'domhandler';
import { Parser } from 'htmlparser2';

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
  const parser = new Parser(collector, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
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
  const visit = (nodes: ChildNode[]) => {
    // An index loop: this walk runs on every page a crawl converts, and `for...of` costs an iterator per element.
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      if (isText(node)) collector.ontext(node.data);
      else if (isTag(node)) {
        collector.onopentag(node.name, node.attribs);
        visit(node.children);
        collector.onclosetag(node.name);
      }
    }
  };
  visit(document.children);
  return collector.finish();
}

function signalCollector(): SignalEvents {
  const signals: PageSignals = {
    title: '',
    textLength: 0,
    text: '',
    inlineScriptBytes: 0,
    externalScripts: 0,
    noscriptText: '',
    appRoots: [],
    emptyAppRoots: [],
  };
  const stack: string[] = [];
  const roots: OpenRoot[] = [];
  let hiddenDepth = 0;
  let noscriptDepth = 0;
  /** Open app roots with no content yet. */
  let rootsWaiting = 0;
  const markRootsFilled = () => {
    for (const root of roots) root.hasContent = true;
    rootsWaiting = 0;
  };
  let lastWasSpace = true;
  let sample = '';
  let noscript = '';
  let title = '';

  /**
   * Adds `text`'s visible characters to `textLength` (a whitespace run counts once, and not at all
   * right after whitespace; the second half of a surrogate pair not at all) and says whether it has
   * any but whitespace. Runs of two or more are found by a regular expression, which scans in native
   * code: a loop over every character took ~3x as long on DocBook pages (6,700 characters each), and
   * this walk runs on every page a crawl converts. Text holding a low surrogate takes the loop.
   */
  const countText = (text: string): boolean => {
    if (lowSurrogate.test(text)) return countTextByCharacter(text);
    let count = text.length;
    longSpaceRuns.lastIndex = 0;
    for (let run = longSpaceRuns.exec(text); run !== null; run = longSpaceRuns.exec(text)) count -= run[0].length - 1;
    if (lastWasSpace && isSpaceCode(text.charCodeAt(0))) count--;
    lastWasSpace = isSpaceCode(text.charCodeAt(text.length - 1));
    signals.textLength += count;
    return notSpace.test(text);
  };
  /** `countText` one character at a time (counted with charCodeAt: iterating would allocate a string per character). */
  const countTextByCharacter = (text: string): boolean => {
    let hasText = false;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 0xdc00 && code <= 0xdfff) continue; // the second half of a pair counts once
      const isSpace = isSpaceCode(code);
      if (isSpace && lastWasSpace) continue;
      if (!isSpace) hasText = true;
      lastWasSpace = isSpace;
      signals.textLength++;
    }
    return hasText;
  };

  return {
    onopentag(name, attributes) {
      if (rootsWaiting > 0) markRootsFilled();
      const rootName = appRootTags.has(name) ? name : attributes.id && appRootIds.has(attributes.id) ? `#${attributes.id}` : undefined;
      stack.push(name);
      if (rootName && !roots.some((root) => root.name === rootName)) {
        signals.appRoots.push(rootName);
        roots.push({ name: rootName, depth: stack.length, hasContent: false });
        rootsWaiting++;
      }
      if (name === 'script' && attributes.src) signals.externalScripts++;
      if (hiddenTextTags.has(name)) hiddenDepth++;
      if (name === 'noscript') noscriptDepth++;
    },
    ontext(text) {
      const current = stack[stack.length - 1];
      if (current === 'script') signals.inlineScriptBytes += text.length;
      if (current === 'title' && stack.includes('head')) title += text;
      if (noscriptDepth > 0) noscript += text;
      if (hiddenDepth > 0) return;
      const wasSpace = lastWasSpace;
      const hasText = text.length > 0 && countText(text);
      if (hasText && rootsWaiting > 0) markRootsFilled();
      if (!hasText) {
        if (!wasSpace && text.length > 0 && sample.length < textSampleLength) sample += ' ';
      } else if (sample.length < textSampleLength) {
        const collapsed = text.replace(spaceRuns, ' ');
        sample += (wasSpace && collapsed.startsWith(' ') ? collapsed.slice(1) : collapsed).slice(0, textSampleLength - sample.length);
      }
    },
    onclosetag(name) {
      if (hiddenTextTags.has(name) && hiddenDepth > 0) hiddenDepth--;
      if (name === 'noscript' && noscriptDepth > 0) noscriptDepth--;
      const depth = stack.length;
      const root = roots[roots.length - 1];
      if (root && root.depth === depth) {
        roots.pop();
        if (!root.hasContent) {
          signals.emptyAppRoots.push(root.name);
          rootsWaiting--;
        }
      }
      stack.pop();
    },
    finish() {
      for (const root of roots) if (!root.hasContent) signals.emptyAppRoots.push(root.name);
      signals.text = sample.trim();
      signals.textLength = signals.text.length === 0 ? 0 : signals.textLength;
      signals.title = title.replace(/\s+/g, ' ').trim();
      signals.noscriptText = noscript.replace(/\s+/g, ' ').trim();
      return signals;
    },
  };
}
