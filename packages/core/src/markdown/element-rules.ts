import { renderBlockquote, renderDefinitionTerm, renderHeading, renderPlainBlock, renderThematicBreak } from './block-rules.js';
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
import { renderDivision } from './line-code.js';
import { renderImage, renderLink } from './links.js';
import { renderList, renderOrphanItem } from './lists.js';
import { ValidationError } from '../errors.js';
import type { ElementRule, ElementRules } from './markdown-converter.js';
import { renderTable } from './tables.js';

/** Elements laid out as blocks by browsers that need no markup beyond their separation. */
const PLAIN_BLOCKS = [
  'address',
  'article',
  'aside',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'html',
  'legend',
  'main',
  'nav',
  'p',
  'search',
  'section',
  'summary',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'listing',
  'plaintext',
  'xmp',
] as const;

/**
 * HTML element -> markdown rule. Tags missing here (`span`, `abbr`, `label`, `small`, custom
 * elements...) are inline containers; ignored and hidden elements are filtered before the lookup
 * (see skip-rules.ts). Public, so a rule of one's own can wrap a built-in one; to change the
 * table for a conversion pass `elementRules` overrides (see {@link withElementRules}).
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
    div: renderDivision,
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

/**
 * Per-element overrides of the table, the way hast-util-to-mdast takes `handlers`: a tag mapped to
 * a rule adds or replaces that tag's rule; mapped to `null`, the tag loses its rule and becomes an
 * inline container (its children are still converted). Tag names are matched in lower case.
 */
export type ElementRuleOverrides = Readonly<Record<string, ElementRule | null>>;

const merged = new WeakMap<ElementRuleOverrides, ElementRules>();

/** ELEMENT_RULES with the overrides applied (memoised per overrides object). Refuses a value that is not a rule or null. */
export function withElementRules(overrides: ElementRuleOverrides | undefined): ElementRules {
  if (overrides === undefined) return ELEMENT_RULES;
  const known = merged.get(overrides);
  if (known) return known;
  const table = Object.assign(Object.create(null) as Record<string, ElementRule>, ELEMENT_RULES);
  for (const [tag, rule] of Object.entries(overrides)) {
    if (rule === null) delete table[tag.toLowerCase()];
    else if (typeof rule === 'function') table[tag.toLowerCase()] = rule;
    else
      throw new ValidationError(`\`elementRules.${tag}\` must be a function (element, converter) => void or null; got ${typeof rule}`, `elementRules.${tag}`);
  }
  const frozen = Object.freeze(table);
  merged.set(overrides, frozen);
  return frozen;
}
