import type { ScrapeDocument } from '@quarry/core';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { html, trustedHtml, type Html } from './html.js';

/**
 * One scraped page as a person reads it: the markdown rendered (GitHub-flavoured; raw HTML in the
 * markdown is escaped and javascript: links dropped, micromark's safe defaults) and the metadata
 * as a list. Pages are untrusted input: nothing here lets them run script in the dashboard, and
 * the dashboard's CSP would refuse it anyway.
 */
const renderLimit = 400_000;

export function renderMarkdown(markdown: string): Html {
  const text = markdown.length > renderLimit ? `${markdown.slice(0, renderLimit)}\n\n… (cut at ${renderLimit} characters)` : markdown;
  return trustedHtml(micromark(text, { extensions: [gfm()], htmlExtensions: [gfmHtml()] }));
}

export function metadataList(metadata: ScrapeDocument['metadata']): Html {
  const entries = Object.entries(metadata ?? {}).filter(([, value]) => value !== undefined && value !== null && value !== '');
  return html`<dl class="meta">${entries.map(([name, value]) => html`<dt>${name}</dt><dd>${metadataValue(value)}</dd>`)}</dl>`;
}

function metadataValue(value: unknown): Html | string {
  if (Array.isArray(value)) return value.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))).join(', ');
  if (typeof value === 'object') return html`<code>${JSON.stringify(value)}</code>`;
  return String(value);
}

/**
 * A screenshot URL the dashboard can show: the server's own blob URLs become same-origin paths
 * (the listening address may not be the one the browser used); data URLs stay; others are dropped.
 */
export function screenshotSource(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('data:image/')) return url;
  try {
    const path = new URL(url).pathname;
    return /^\/v[12]\/blobs\/[0-9a-f]{32}$/.test(path) ? path : undefined;
  } catch {
    return undefined;
  }
}
