import { isTag, isText, type Element } from 'domhandler';

/**
 * Elements whose content never reaches markdown: metadata, scripts, embedded media and form
 * controls (checkboxes are handled by the `input` rule, for task lists).
 */
export const IGNORED_TAGS: ReadonlySet<string> = new Set([
  'head',
  'title',
  'meta',
  'link',
  'base',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'source',
  'track',
  'map',
  'area',
  'select',
  'option',
  'optgroup',
  'datalist',
  'textarea',
  'progress',
  'meter',
  'slot',
]);

/** `display: none` or `visibility: hidden` in an inline style. */
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * Class tokens of page chrome inside content: copy buttons and their "Copied!" labels, line-number
 * gutters, MediaWiki's "[edit]" section links. Marketing "copy" (`hero-copy`, `body-copy`) and Prism's `line-numbers` (on the `<pre>`
 * itself) are deliberately not matched.
 */
const CHROME_CLASS =
  /clipboard|copied|copy[-_]?(?:btn|button|code|icon|to)|(?:btn|button|code)[-_]?copy|(?:^|\s)(?:gutter|linenos|lineno|linenodiv|line-numbers-rows|line-number|linenumber|line-numbers-wrapper|hljs-ln-numbers|hljs-ln-n|rouge-gutter|react-syntax-highlighter-line-number|mw-editsection)(?:\s|$)/i;

/** Custom elements of copy widgets (`<clipboard-copy>`, `<copy-button>`). */
const CHROME_TAG = /copy|clipboard/;

/** Visible labels of copy buttons. */
const COPY_LABEL = /^(?:copy|copied!?|copy code|copy to clipboard|copied to clipboard!?)$/i;

/**
 * True when `element` and its subtree are left out of the markdown: ignored tags, hidden elements
 * (`hidden` except on a tab panel, whose content waits behind its tab; `aria-hidden="true"` except on
 * images; `display:none`), closed dialogs, and code
 * chrome (copy buttons, line-number gutters).
 */
export function isSkippedElement(element: Element): boolean {
  const name = element.name;
  if (IGNORED_TAGS.has(name)) return true;
  const attributes = element.attribs;
  if (attributes.hidden !== undefined && attributes.role !== 'tabpanel') return true;
  if (attributes['aria-hidden'] === 'true' && name !== 'img' && name !== 'picture') return true;
  const style = attributes.style;
  if (style !== undefined && style.length > 8 && HIDDEN_STYLE.test(style)) return true;
  const className = attributes.class;
  if (className !== undefined && className !== '' && CHROME_CLASS.test(className)) return true;
  if (name.includes('-') && CHROME_TAG.test(name)) return true;
  if (name === 'dialog' && attributes.open === undefined) return true;
  return name === 'button' && COPY_LABEL.test(textOf(element).trim());
}

/** Concatenated text of a (small) subtree. */
export function textOf(node: Element): string {
  let text = '';
  for (const child of node.children) {
    if (isText(child)) text += child.data;
    else if (isTag(child)) text += textOf(child);
  }
  return text;
}
