import {
  renderBlockquote,
  renderDefinitionTerm,
  renderHeading,
  renderPlainBlock,
  renderThematicBreak,
} from './block-rules.js';
import { renderInlineCode, renderPreformatted } from './code-blocks.js';
import {
  renderEmphasis,
  renderInput,
  renderLineBreak,
  renderMath,
  renderQuotation,
  renderStrikethrough,
  renderStrong,
  renderSubscript,
  renderSuperscript,
} from './inline-rules.js';
import { renderImage, renderLink } from './links.js';
import { renderList, renderOrphanItem } from './lists.js';
import type { ElementRule, ElementRules } from './markdown-converter.js';
import { renderTable } from './tables.js';

/** Elements laid out as blocks by browsers that need no markup beyond their separation. */
const PLAIN_BLOCKS = [
  'address', 'article', 'aside', 'body', 'caption', 'center', 'dd', 'details', 'dl', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'header', 'hgroup', 'html', 'legend', 'main', 'nav', 'p', 'search', 'section',
  'summary', 'div', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'listing', 'plaintext', 'xmp',
] as const;

/**
 * HTML element -> markdown rule. Tags missing here (`span`, `abbr`, `label`, `small`, custom
 * elements...) are inline containers; ignored and hidden elements are filtered before the lookup
 * (see skip-rules.ts). Extend by spreading: `{ ...ELEMENT_RULES, mark: myRule }`.
 */
export const ELEMENT_RULES: ElementRules = Object.freeze(
  // A null prototype, so a tag named `constructor` is not mistaken for a rule.
  Object.assign(Object.create(null) as Record<string, ElementRule>, {
  ...Object.fromEntries(PLAIN_BLOCKS.map((tag): [string, ElementRule] => [tag, renderPlainBlock])),
  h1: renderHeading,
  h2: renderHeading,
  h3: renderHeading,
  h4: renderHeading,
  h5: renderHeading,
  h6: renderHeading,
  blockquote: renderBlockquote,
  hr: renderThematicBreak,
  dt: renderDefinitionTerm,
  ul: renderList,
  ol: renderList,
  menu: renderList,
  dir: renderList,
  li: renderOrphanItem,
  table: renderTable,
  pre: renderPreformatted,
  code: renderInlineCode,
  kbd: renderInlineCode,
  samp: renderInlineCode,
  tt: renderInlineCode,
  a: renderLink,
  img: renderImage,
  br: renderLineBreak,
  input: renderInput,
  math: renderMath,
  em: renderEmphasis,
  i: renderEmphasis,
  strong: renderStrong,
  b: renderStrong,
  del: renderStrikethrough,
  s: renderStrikethrough,
  strike: renderStrikethrough,
  sup: renderSuperscript,
  sub: renderSubscript,
  q: renderQuotation,
  }),
);
