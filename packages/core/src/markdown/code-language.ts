import { isTag, isText, type Element } from 'domhandler';

/** How many `pre`s a `<pre>` that only wraps another is read through (a hostile page nests thousands). */
const INNER_PRE_DEPTH = 4;
/** How many ancestors of a `<pre>` are searched for a language (wrappers like `div.highlight-source-js`). */
const ANCESTOR_DEPTH = 4;

/** `language-ts`, `lang-js`, `highlight-source-python`, `highlight-python`, `mw-highlight-lang-php`, `brush: js`. */
const PREFIXED_LANGUAGE = /^(?:language-|lang-|highlight-source-|highlight-|mw-highlight-lang-|brush:)(.+)$/i;
/** On wrappers only these prefixes count (`lang-en` on a wrapper is a human language). */
const WRAPPER_PREFIXED_LANGUAGE = /^(?:language-|highlight-source-|highlight-|mw-highlight-lang-)(.+)$/i;
/** Tokens that mark an element as a highlighter's, so a bare token like `js` may be its language. */
const HIGHLIGHTER_MARKERS = new Set(['highlight', 'hljs', 'sourcecode', 'prettyprint', 'syntax', 'code', 'codehilite']);
const NOT_A_LANGUAGE = new Set(['none', 'nohighlight', 'plain', 'source', 'text-only', 'default', 'code', 'block']);

/** Bare class tokens accepted as languages when a highlighter marks the element. */
const KNOWN_LANGUAGES = new Set([
  'js',
  'javascript',
  'mjs',
  'cjs',
  'ts',
  'typescript',
  'jsx',
  'tsx',
  'json',
  'jsonc',
  'json5',
  'html',
  'xml',
  'css',
  'scss',
  'sass',
  'less',
  'python',
  'py',
  'python3',
  'ruby',
  'rb',
  'php',
  'java',
  'kotlin',
  'kt',
  'scala',
  'go',
  'golang',
  'rust',
  'rs',
  'c',
  'cpp',
  'c++',
  'cc',
  'h',
  'hpp',
  'cs',
  'csharp',
  'fsharp',
  'swift',
  'objectivec',
  'objc',
  'sh',
  'bash',
  'shell',
  'zsh',
  'fish',
  'console',
  'powershell',
  'ps1',
  'bat',
  'cmd',
  'sql',
  'mysql',
  'pgsql',
  'yaml',
  'yml',
  'toml',
  'ini',
  'dockerfile',
  'makefile',
  'cmake',
  'diff',
  'patch',
  'markdown',
  'md',
  'graphql',
  'gql',
  'lua',
  'perl',
  'pl',
  'r',
  'dart',
  'elixir',
  'erlang',
  'haskell',
  'hs',
  'clojure',
  'ocaml',
  'zig',
  'nim',
  'vue',
  'svelte',
  'http',
  'nginx',
  'apache',
  'terraform',
  'hcl',
  'groovy',
  'gradle',
  'latex',
  'tex',
  'matlab',
  'julia',
  'solidity',
  'proto',
  'protobuf',
  'vim',
  'text',
  'plaintext',
  'csv',
  'regex',
  'asm',
  'nasm',
  'wasm',
  'vb',
  'vbnet',
]);

/**
 * The language of a code block, from the `<code>` inside `pre`, then `pre`, then up to four
 * wrappers: `data-language`/`data-lang` attributes and class conventions (`language-ts`, `lang-js`,
 * `highlight-source-python`, `sourceCode python`, `hljs js`, `brush: js`). Returns `''` when none.
 */
export function detectCodeLanguage(pre: Element): string {
  return languageThrough(pre, 0);
}

/** `pre`'s language, read first through the `pre`s it only wraps, at most `INNER_PRE_DEPTH` deep. */
function languageThrough(pre: Element, depth: number): string {
  const inner = depth < INNER_PRE_DEPTH ? soleInnerPre(pre) : undefined;
  if (inner) {
    const language = languageThrough(inner, depth + 1);
    if (language !== '') return language;
  }
  for (const child of pre.children) {
    if (isTag(child) && child.name === 'code') {
      const language = languageOf(child, true);
      if (language !== '') return language;
      break;
    }
  }
  let language = languageOf(pre, true);
  let ancestor = pre.parent;
  for (let level = 0; language === '' && level < ANCESTOR_DEPTH && ancestor !== null && isTag(ancestor); level++) {
    language = languageOf(ancestor, false);
    ancestor = ancestor.parent;
  }
  return language;
}

/**
 * The `pre` that `pre` only wraps (mdBook writes each runnable example as
 * `<pre><pre class="playground"><code class="language-rust">`): its language is the block's.
 */
function soleInnerPre(pre: Element): Element | undefined {
  let inner: Element | undefined;
  for (const child of pre.children) {
    if (isTag(child)) {
      if (child.name !== 'pre' || inner) return undefined;
      inner = child;
    } else if (isText(child) && child.data.trim() !== '') return undefined;
  }
  return inner;
}

function languageOf(element: Element, isCodeElement: boolean): string {
  const attributes = element.attribs;
  const fromData = attributes['data-language'] ?? attributes['data-lang'];
  if (fromData !== undefined) {
    // On wrappers `data-lang` may be a human language ("en"): accept only known code languages there.
    const language = sanitize(fromData);
    if (language !== '' && (isCodeElement || KNOWN_LANGUAGES.has(language))) return language;
  }
  const className = attributes.class;
  return className === undefined || className === '' ? '' : languageFromClass(className, isCodeElement);
}

/** The language named by a class attribute (see {@link detectCodeLanguage}); `''` when none. */
export function languageFromClass(className: string, isCodeElement: boolean): string {
  const tokens = className.trim().split(/\s+/);
  const prefixed = isCodeElement ? PREFIXED_LANGUAGE : WRAPPER_PREFIXED_LANGUAGE;
  let isHighlighter = isCodeElement;
  for (const token of tokens) {
    const match = prefixed.exec(token);
    if (match !== null) {
      const language = sanitize(match[1]!);
      if (language !== '') return language;
    }
    if (token === 'brush:' || token === 'brush') {
      const next = tokens[tokens.indexOf(token) + 1];
      if (next !== undefined) return sanitize(next);
    }
    if (HIGHLIGHTER_MARKERS.has(token.toLowerCase())) isHighlighter = true;
  }
  if (!isHighlighter) return '';
  for (const token of tokens) {
    const lower = token.toLowerCase();
    if (KNOWN_LANGUAGES.has(lower)) return lower;
  }
  return '';
}

function sanitize(raw: string): string {
  const match = /^[\w#+.-]+/.exec(raw.trim().toLowerCase());
  if (match === null) return '';
  let language = match[0].replace(/[.-]+$/, '');
  // GitHub names some grammars by TextMate scope: `highlight-text-html-basic` is HTML.
  if (language.startsWith('text-')) language = language.split('-')[1] ?? '';
  return language.length > 30 || NOT_A_LANGUAGE.has(language) ? '' : language;
}
