export { htmlToMarkdown, type MarkdownOptions } from './html-to-markdown.js';
export { ELEMENT_RULES, withElementRules, type ElementRuleOverrides } from './element-rules.js';
// What a rule is handed: the converter (walk children, open blocks, wrap text) and its writer.
export type { ElementRule, ElementRules, MarkdownConverter } from './markdown-converter.js';
export type { MarkdownWriter, InlineMark, Separation } from './markdown-writer.js';
