export { htmlToMarkdown, type MarkdownOptions } from './html-to-markdown.js';
