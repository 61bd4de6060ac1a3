/**
 * Ground truth from a Sphinx page's reStructuredText source (`_sources/*.rst.txt`): the section
 * titles, the literal/code blocks, the external links and the plain text, read with a small line
 * parser (no docutils here). Only what the source states for sure is taken: heading text (levels
 * depend on the underline order of each file, so they are not compared), code text (languages
 * depend on each project's default highlighter), `text <url>`_ links, and prose for the shingle F1.
 */
import { shingleBreak } from '../main-content/metrics.js';

/** A truth with nothing in it yet, for a reader to fill. */
export function emptyTruth(): RstTruth {
  return { headings: new Map(), code: new Map(), links: new Map(), text: '', generated: { objects: [], modules: [], regions: new Set(), numbered: [] } };
}

export interface RstTruth {
  headings: Map<string, number>;
  code: Map<string, number>;
  links: Map<string, number>;
  text: string;
  /** What Sphinx generates at build time on this page (not in the source; see `generated.ts`). */
  generated: GeneratedParts;
}

/**
 * Directives whose output the source cannot state: autodoc's objects (by name: the `dt` id of the
 * object description they become), automodule's members (by module), and regions whose text is
 * written by the build (executed ipython sessions, autosummary tables, toctree entries, the
 * fixed warning of cryptography's `hazmat`).
 */
export interface GeneratedParts {
  objects: string[];
  /** Numbers of extension roles (`:issue:`45637``): the link the extension writes (`GH45637`). */
  numbered: string[];
  modules: string[];
  regions: Set<string>;
}

const autodocObjects: ReadonlySet<string> = new Set([
  'autoclass',
  'autofunction',
  'automethod',
  'autoattribute',
  'autodata',
  'autoexception',
  'autoproperty',
  'autodecorator',
]);
/** Directives whose whole HTML output is generated, by the region name `generated.ts` knows. */
const generatedRegions: ReadonlySet<string> = new Set(['ipython', 'autosummary', 'toctree', 'hazmat', 'jupyter-execute']);

const adornment = /^([=\-~^"'*+#:.`_!$%&,/;<>?@\\|])\1{2,}\s*$/;
const directive = /^(\s*)\.\.\s+([\w:-]+)::\s*(.*)$/;
const codeDirectives: ReadonlySet<string> = new Set(['code-block', 'code', 'sourcecode', 'literalinclude-no', 'doctest', 'testcode', 'parsed-literal']);
/** Directives whose body is not shown as text on the page (or shown as something else). */
const hiddenDirectives: ReadonlySet<string> = new Set([
  'toctree',
  'index',
  'only',
  'raw',
  'image',
  'figure',
  'highlight',
  'contents',
  'include',
  'literalinclude',
  'automodule',
  'autoclass',
  'autofunction',
  'ifconfig',
  'tabularcolumns',
  'sectionauthor',
  'moduleauthor',
  'testsetup',
  'testcleanup',
  'csv-table',
  'list-table',
  'table',
  'cmake-module',
  'productionlist',
  'graphviz',
  'digraph',
  'meta',
  // Set the module that later names resolve in; show nothing.
  'module',
  'currentmodule',
  'py:module',
  'py:currentmodule',
  // Its table is written by the build from the names listed (a generated region, excused).
  'autosummary',
  // An executed session: the page shows the input with its prompts and the output, all written
  // by the build (a generated region, excused); the body's lines are not the text a reader sees.
  'ipython',
  'automodapi',
  'automodsumm',
]);

/**
 * Words Sphinx writes before a directive's argument: the version notes' sentence and the Python
 * domain's signature prefixes (`class Foo`, `classmethod from_bytes`).
 */
const directiveLabels: Readonly<Record<string, string>> = {
  versionadded: 'New in version',
  versionchanged: 'Changed in version',
  deprecated: 'Deprecated since version',
  class: 'class',
  exception: 'exception',
  classmethod: 'classmethod',
  staticmethod: 'static',
  coroutinemethod: 'coroutine',
  coroutinefunction: 'coroutine',
  'py:class': 'class',
  'py:exception': 'exception',
  'py:classmethod': 'classmethod',
  'py:staticmethod': 'static',
  // Admonitions: Sphinx writes their title above the body.
  attention: 'Attention',
  caution: 'Caution',
  danger: 'Danger',
  error: 'Error',
  hint: 'Hint',
  important: 'Important',
  note: 'Note',
  tip: 'Tip',
  warning: 'Warning',
  seealso: 'See also',
};

/** Labels Sphinx's info field lists show, by field name (`:param x:` is shown as "Parameters: x"). */
const fieldLabels: Readonly<Record<string, string>> = {
  param: 'Parameters',
  parameter: 'Parameters',
  arg: 'Parameters',
  argument: 'Parameters',
  key: 'Parameters',
  keyword: 'Keyword Arguments',
  kwarg: 'Keyword Arguments',
  kwparam: 'Keyword Arguments',
  raises: 'Raises',
  raise: 'Raises',
  except: 'Raises',
  exception: 'Raises',
  returns: 'Returns',
  return: 'Returns',
  rtype: 'Return type',
  yields: 'Yields',
  yield: 'Yields',
  ivar: 'Variables',
  var: 'Variables',
  cvar: 'Variables',
};

/**
 * Info field lists as Sphinx shows them: one label per run of fields of a kind ("Parameters"),
 * then each field's name, its `:type name:` (or `:param type name:`) in parentheses, and the text.
 */
function fieldLists(lines: string[]): Map<number, string> {
  const result = new Map<number, string>();
  const paramAt = new Map<string, number>();
  let lastLabel = '';
  let fieldIndent = -1;
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const field = /^(\s*):(\w+)(?:\s+([^:]+?))?:(?:\s+(.*))?$/.exec(line);
    const indent = indentOf(line);
    if (!field) {
      if (indent <= fieldIndent) {
        lastLabel = '';
        fieldIndent = -1;
        paramAt.clear();
      }
      return;
    }
    const [, space, kind, argument = '', body = ''] = field as unknown as [string, string, string, string | undefined, string | undefined];
    if (kind === 'type' && argument && paramAt.has(argument)) {
      const at = paramAt.get(argument)!;
      result.set(
        at,
        (result.get(at) ?? lines[at]!).replace(
          new RegExp(`(^\\s*(?:${fieldLabels.param} )?${argument.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`),
          `$1 (${body})`,
        ),
      );
      result.set(index, '');
      return;
    }
    const label = fieldLabels[kind];
    if (!label) return;
    fieldIndent = indent;
    const words = argument.split(/\s+/).filter(Boolean);
    const name = words.pop() ?? '';
    const type = words.join(' ');
    const shown = `${label === lastLabel ? '' : `${label} `}${name}${type ? ` (${type})` : ''} ${body}`.trim();
    lastLabel = label;
    if (label === 'Parameters' && name) paramAt.set(name, index);
    result.set(index, `${space}${shown}`);
  });
  return result;
}

/** Folds what Sphinx's smartquotes and HTML writer change: quotes, dashes, ellipses, spaces. */
export function canonical(text: string): string {
  return text
    .replace(/(?:\u200b|\u200c|\u200d|\ufeff)/g, '')
    .replace(/[“”„″]/g, '"')
    .replace(/[‘’′]/g, "'")
    .replace(/---?|[–—]/g, '-')
    .replace(/…/g, '...')
    .replace(/\s+/g, ' ')
    .replace(/\s*[¶#]$/, '')
    .trim();
}

/**
 * A section title as both sides are compared: canonical text without a leading section number
 * ("16.1. "), which Sphinx writes into the heading of a numbered toctree's pages and no source has.
 * Applied to the source's titles and to each extractor's headings alike. docutils' `sectnum`
 * ("1.2   Title") is such a number too.
 */
export function sectionTitle(text: string): string {
  // docutils' `sectnum` writes "1.2" and three no-break spaces (no dot).
  return canonical(text).replace(/^\d+(?:\.\d+)*\.? /, '');
}

/** Roles of Sphinx and docutils that show a number as written (`:pep:` shows "PEP 8", as the truth does not state either). */
const numberedRole =
  /:(?!(?:pep|rfc|const|sup|sub|math|eq|data|attr|obj|code|literal|samp|kbd|strong|emphasis|ref|numref|doc|term)(?:`|:))(?:[\w+-]+:)*[\w+-]+:`(\d+)`/g;

/** Inline markup to the text a reader sees. */
export function inlineText(text: string): string {
  // An inline literal shows what it holds as written: no role or reference inside it is read
  // (a title ``:emphasis:``); each is set aside and put back last.
  const literals: string[] = [];
  const shown = text.replace(/``([^`]+)``/g, (_whole, literal: string) => `\u0001${literals.push(literal) - 1}\u0001`);
  return readInline(shown).replace(/\u0001(\d+)\u0001/g, (_whole, at: string) => literals[Number(at)]!);
}

function readInline(text: string): string {
  return (
    text
      // A substitution that is also a link (`|name|_`) shows the substitution's text.
      .replace(/\|([\w -]+)\|__?/g, '|$1|')
      // A simple reference name (`word_`, `word__`) shows the word; inside literals it stays as written.
      .replace(
        /(``[^`]+``|`[^`]*`_*)|(?<![\w\\|])([A-Za-z][\w.+-]*?)__?(?=$|[\s.,;:!?)\]'"])/g,
        (whole, literal: string | undefined, name: string | undefined) => literal ?? name ?? whole,
      )
      // An extension's role over a number (`:issue:`45637``, `:pr:`...``) is a link whose text the
      // project's configuration writes ("GH45637", "#45637"): a gap in the truth, excused in the page.
      .replace(numberedRole, ` ${shingleBreak} `)
      // :abbr:`DOI (Digital Object Identifier)` shows the abbreviation; the rest is its tooltip.
      .replace(/:abbr:`([^`(]*?)\s*\([^`]*\)`/g, '$1')
      .replace(/:[\w:+-]+:`([^`<]*?)\s*<[^`>]*>`/g, '$1') // :role:`text <target>`
      // :role:`~a.b.c` shows the last part only ("c"), as Sphinx writes a cross-reference with `~`.
      .replace(/:[\w:+-]+:`([!~]?)([^`]*)`/g, (_m, mark: string, target: string) => (mark === '~' ? (target.split('.').pop() ?? target) : target))
      .replace(/(?<![`\w])`~([\w.]+)`(?!_)/g, (_m, target: string) => target.split('.').pop() ?? target)
      .replace(/`([^`<]+?)\s*<[^`>]+>`__?/g, '$1') // `text <url>`_
      .replace(/``([^`]+)``/g, '$1')
      .replace(/`([^`]+)`__?/g, '$1')
      .replace(/`([^`]+)`/g, '$1')
      .replace(/\*\*([^*]+)\*\*/g, '$1')
      .replace(/(^|[\s(])\*([^*\s][^*]*)\*/g, '$1$2')
      .replace(/\\(.)/g, '$1')
      .replace(/\|([\w -]+)\|/g, '$1')
  );
}

function add(map: Map<string, number>, key: string): void {
  if (key === '') return;
  map.set(key, (map.get(key) ?? 0) + 1);
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The indented block that starts after `start` (skipping blank lines and directive options). */
function indentedBlock(lines: string[], start: number, parentIndent: number): { body: string[]; end: number } {
  let index = start;
  while (index < lines.length && (lines[index]!.trim() === '' || /^\s+:[\w-]+:/.test(lines[index]!))) {
    if (lines[index]!.trim() !== '' && indentOf(lines[index]!) <= parentIndent) break;
    index++;
  }
  const body: string[] = [];
  while (index < lines.length && (lines[index]!.trim() === '' || indentOf(lines[index]!) > parentIndent)) body.push(lines[index++]!);
  while (body.length > 0 && body[body.length - 1]!.trim() === '') body.pop();
  const dedent = Math.min(...body.filter((line) => line.trim() !== '').map(indentOf));
  return { body: body.map((line) => line.slice(dedent)), end: index };
}

export const codeKey = (code: string): string => code.replace(/\s+/g, ' ').trim();

/** Languages whose blocks Sphinx treats as a Python console when they start with `>>>`. */
const pythonLanguages: ReadonlySet<string> = new Set(['py', 'python', 'py3', 'python3', 'default']);

/**
 * A Python console block as Sphinx shows it: `trim_doctest_flags` (on by default) drops the
 * `# doctest: +FLAG` comments and the `<BLANKLINE>` markers of a block in `pycon`, or in Python (or
 * the default highlighting) when it starts with `>>>`; a block in another language (`.. highlight::
 * rest` over an example of reStructuredText) keeps them.
 */
export function shownCode(code: string, language = 'default'): string {
  const isConsole = language === 'pycon' || language === 'pycon3' || (pythonLanguages.has(language) && /^\s*>>>/.test(code));
  if (!isConsole) return code;
  return code.replace(/[ \t]*#\s*doctest:.+$/gm, '').replace(/^\s*<BLANKLINE>\s*$/gm, '');
}

/**
 * `included` reads a `literalinclude`d file when the build kept a copy (`_downloads/`); a file it
 * cannot find stays out of the truth, as before.
 */
export function rstTruth(source: string, included?: (path: string) => string | undefined, language = 'default'): RstTruth {
  const lines = source
    .replace(/\r\n?/g, '\n')
    // A link whose text ends one line and its address starts the next (`` `.zenodo.json`` then
    // ``<https://...>`__ file``) is one link: joined on one line, as docutils reads it.
    .replace(/(?<![`\w])`([^`\n]+)\n[ \t]*(<https?:\/\/[^>\s]+>`)/g, '`$1 $2')
    .split('\n');
  const fields = fieldLists(lines);
  const truth = emptyTruth();
  const textParts: string[] = [];
  const named = new Map<string, string>();
  for (const match of source.matchAll(/^\s*\.\. _([^:]+):\s+(https?:\/\/\S+)\s*$/gm)) named.set(match[1]!.trim().toLowerCase(), match[2]!);
  const addLinks = (line: string): void => {
    for (const match of line.matchAll(numberedRole)) truth.generated.numbered.push(match[1]!);
    for (const match of line.matchAll(/`([^`<]+?)\s*<(https?:\/\/[^>`]+)>`__?/g))
      add(truth.links, `${canonical(inlineText(match[1]!))} -> ${new URL(match[2]!).href}`);
    for (const match of line.matchAll(/(?<![:\w])`([^`<]+)`_(?!_)/g)) {
      const url = named.get(match[1]!.trim().toLowerCase());
      if (url) add(truth.links, `${canonical(match[1]!)} -> ${new URL(url).href}`);
    }
  };
  /** The language `.. highlight::` set for the literal blocks that follow. */
  let highlight = language;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const next = lines[index + 1] ?? '';
    // Section title: text underlined (optionally overlined) with one punctuation character.
    if (line.trim() !== '' && !adornment.test(line) && indentOf(line) === 0 && adornment.test(next) && next.trim().length >= line.trim().length) {
      const title = sectionTitle(inlineText(line.trim()));
      add(truth.headings, title);
      textParts.push(title);
      index += 2;
      continue;
    }
    // Section title with an overline: the title may be inset ("====\n Title\n====", as docutils'
    // own documents write theirs).
    const after = lines[index + 2] ?? '';
    if (adornment.test(line) && next.trim() !== '' && !adornment.test(next) && after.trim() === line.trim() && next.trim().length <= line.trim().length) {
      const title = sectionTitle(inlineText(next.trim()));
      add(truth.headings, title);
      textParts.push(title);
      index += 3;
      continue;
    }
    if (adornment.test(line)) {
      index++;
      continue;
    }
    // An anonymous link target (`__ https://...`): not shown.
    if (/^\s*__ \S+\s*$/.test(line)) {
      index++;
      continue;
    }
    // File-wide metadata before the first title (`:orphan:`, `:tocdepth: 2`): Sphinx shows none.
    if (textParts.length === 0 && /^:[\w-]+:(?:\s+\S+)?\s*$/.test(line)) {
      index++;
      continue;
    }
    // A Jinja placeholder alone on a line (pandas' conf.py renders each source as a template; its
    // `{{ header }}` becomes a hidden setup block): not shown.
    if (/^\s*\{\{[^}]*\}\}\s*$/.test(line)) {
      index++;
      continue;
    }
    const found = directive.exec(line);
    if (found) {
      const [, indent, name, argument] = found as unknown as [string, string, string, string];
      if (name === 'highlight') highlight = argument.trim() || 'default';
      const block = indentedBlock(lines, index + 1, indent.length);
      const objectName = argument.trim().split(/[\s(]/)[0] ?? '';
      if (autodocObjects.has(name) && objectName) truth.generated.objects.push(objectName);
      if (name === 'automodule' && objectName) truth.generated.modules.push(objectName);
      if (generatedRegions.has(name)) truth.generated.regions.add(name);
      // What the build writes here is excused in the page; no shingle of the truth spans it
      // (headings over autosummary tables would read as one run of titles).
      const generates = generatedRegions.has(name) || autodocObjects.has(name) || name === 'automodule' || name === 'automodapi' || name === 'automodsumm';
      if (generates) textParts.push(shingleBreak);
      // sphinx-automodapi writes a module's summary as autosummary tables (astropy's pages).
      if (name === 'automodapi' || name === 'automodsumm') truth.generated.regions.add('autosummary');
      const selects = lines
        .slice(index + 1, block.end)
        .some((option) => /^\s+:(?:lines|pyobject|start-after|end-before|start-at|end-at|diff|prepend|append|dedent):/.test(option));
      const file = name === 'literalinclude' && argument && !selects ? included?.(argument.trim()) : undefined;
      // matplotlib's plot directive runs its code; the page shows the code only with :include-source:
      // (plot_include_source is off by default), and only the figure otherwise.
      const showsSource = lines.slice(index + 1, block.end).some((option) => /^\s+:include-source:\s*(?:true|yes)?\s*$/i.test(option));
      // An image's alt text is read as text on both sides (run-sphinx.ts); its file name is not.
      if (name === 'image' || name === 'figure') {
        const alt = lines.slice(index + 1, block.end).find((option) => /^\s+:alt:/.test(option));
        if (alt) textParts.push(alt.replace(/^\s+:alt:\s*/, ''));
      }
      if (name === 'plot') {
        if (showsSource && !argument.trim()) {
          const code = shownCode(block.body.join('\n'));
          add(truth.code, codeKey(code));
          textParts.push(code);
        }
      } else if (file !== undefined) {
        const code = file.replace(/\n+$/, '');
        add(truth.code, codeKey(code));
        textParts.push(code);
      } else if (codeDirectives.has(name)) {
        const language = name === 'doctest' ? 'pycon' : argument.trim() || highlight;
        const code = shownCode(block.body.join('\n'), language);
        add(truth.code, codeKey(code));
        textParts.push(code);
      } else if (!hiddenDirectives.has(name)) {
        // Admonitions, object descriptions (function::, variable::), versionadded...: shown.
        const label = directiveLabels[name];
        if (label) textParts.push(label);
        // An admonition's argument is the first line of its body (`.. note:: Text`): shown too.
        if (argument) textParts.push(inlineText(argument));
        const inner = rstTruth(block.body.join('\n'), included, highlight);
        for (const [key, count] of inner.headings) for (let n = 0; n < count; n++) add(truth.headings, key);
        for (const [key, count] of inner.code) for (let n = 0; n < count; n++) add(truth.code, key);
        for (const [key, count] of inner.links) for (let n = 0; n < count; n++) add(truth.links, key);
        truth.generated.objects.push(...inner.generated.objects);
        truth.generated.modules.push(...inner.generated.modules);
        for (const region of inner.generated.regions) truth.generated.regions.add(region);
        truth.generated.numbered.push(...inner.generated.numbered);
        textParts.push(inner.text);
      }
      if (generates) textParts.push(shingleBreak);
      index = block.end;
      continue;
    }
    // Comments and link targets: `.. ` not followed by a directive.
    if (/^\s*\.\.(\s|$)/.test(line)) {
      index = indentedBlock(lines, index + 1, indentOf(line)).end;
      continue;
    }
    // Doctest block: a paragraph starting with >>>.
    if (/^\s*>>>/.test(line)) {
      const block: string[] = [];
      while (index < lines.length && lines[index]!.trim() !== '') block.push(lines[index++]!.trim());
      // A doctest block is always a Python console.
      const code = shownCode(block.join('\n'), 'pycon');
      add(truth.code, codeKey(code));
      textParts.push(code);
      continue;
    }
    addLinks(line);
    const isLiteralIntro = /::\s*$/.test(line) && !/^\s*\.\./.test(line);
    const shown = (fields.get(index) ?? line)
      .replace(/^\s*(?:[-*+•]|#\.|\d+\.|\(\d+\))\s+/, '')
      .replace(/\s*::\s*$/, /\S\s*::\s*$/.test(line) && !/\s::\s*$/.test(line) ? ':' : '');
    if (!/^\s*[+|]?[-=+]{3,}[-=+ |]*$/.test(line)) textParts.push(inlineText(shown.replace(/^\s*\|\s?/, '')));
    index++;
    if (isLiteralIntro) {
      const block = indentedBlock(lines, index, indentOf(line));
      if (block.body.length > 0 && indentedIsDeeper(lines, index, indentOf(line))) {
        const code = shownCode(block.body.join('\n'), highlight);
        add(truth.code, codeKey(code));
        textParts.push(code);
        index = block.end;
      }
    }
  }
  truth.text = canonical(textParts.join(' ')).replace(/^[\s\u001e]+|[\s\u001e]+$/g, '');
  return truth;
}

function indentedIsDeeper(lines: string[], start: number, indent: number): boolean {
  for (let index = start; index < lines.length; index++) {
    if (lines[index]!.trim() === '') continue;
    return indentOf(lines[index]!) > indent;
  }
  return false;
}
