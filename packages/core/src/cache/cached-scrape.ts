import type { ScrapeDocument } from '../document.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { CachedDocument, DocumentCache } from '../ports/document-cache.js';
import type { PageIndex } from '../ports/page-index.js';
import type { ScrapeContext, ScrapedPage } from '../scrape/scrape-page.js';
import { cacheKeyOf, cacheUrlKey } from './cache-key.js';
import { canReadCache, canStore, isStorableDocument } from './cache-policy.js';
import { scopedCacheKey, storeScope, type StoreSharing } from './store-scope.js';

/**
 * The document cache around a scrape (maxAge and storeInCache):
 *
 *   options --canReadCache--> DocumentCache.get(key, maxAge) --hit--> stored document, cacheState hit
 *       | miss (or not readable)
 *   scrape --canStore + page ok--> DocumentCache.put + PageIndex.add (the text the search finds)
 *          --page answered an error--> PageIndex.remove
 *
 * A hit keeps the stored content byte for byte; only the per-request metadata is new: sourceURL
 * (the URL as asked), scrapeId, cacheState and cachedAt. A crawl needs the page's links: an entry
 * stored by a plain scrape has none, so the crawl fetches the page (and stores the links).
 * Entries and index pages are the calling team's own unless `sharing` shares them (store-scope.ts).
 */
export type ScrapeRun = (url: string, options: ScrapeOptions, context: ScrapeContext, discoverLinks: boolean) => Promise<ScrapedPage>;

export interface CachedScrapeDeps {
  cache: DocumentCache;
  /** The full-text index the stored pages feed (the embedded search), when there is one. */
  index?: PageIndex;
  clock: Clock;
  ids: Ids;
  sharing?: StoreSharing;
}

export function withDocumentCache(run: ScrapeRun, deps: CachedScrapeDeps): ScrapeRun {
  return async (url, options, context, discoverLinks) => {
    const isReadable = canReadCache(options);
    const scope = storeScope(context.teamId, deps.sharing);
    const key = scopedCacheKey(scope, cacheKeyOf(url, options));
    if (isReadable) {
      const hit = await deps.cache.get(key, options.maxAge, deps.clock.now());
      if (hit && (!discoverLinks || hit.links)) return { document: fromCache(hit, url, context, deps.ids), links: hit.links ?? [] };
    }
    const isStoring = canStore(options);
    // The index keeps the page's text: ask for markdown even when the caller did not, and drop it after.
    const addsMarkdown = isStoring && deps.index !== undefined && !options.formats.some((format) => format.type === 'markdown');
    const page = await run(url, addsMarkdown ? { ...options, formats: [...options.formats, { type: 'markdown' }] } : options, context, discoverLinks);
    const text = page.document.markdown;
    if (addsMarkdown) delete page.document.markdown;
    if (isReadable) page.document.metadata.cacheState = 'miss';
    // A PDF left unparsed has base64 for markdown: nothing to index.
    const indexText = page.document.metadata.engine === 'pdf' && !options.parsePdf ? undefined : text;
    if (isStoring) await store(deps, { key, scope }, url, page, discoverLinks, indexText, context);
    return page;
  };
}

function fromCache(hit: CachedDocument, url: string, context: ScrapeContext, ids: Ids): ScrapeDocument {
  const document = structuredClone(hit.document);
  document.metadata = {
    ...document.metadata,
    sourceURL: url,
    scrapeId: context.scrapeId ?? ids.next(),
    cacheState: 'hit',
    cachedAt: new Date(hit.storedAt).toISOString(),
  };
  return document;
}

async function store(
  deps: CachedScrapeDeps,
  { key, scope }: { key: string; scope: string },
  url: string,
  page: ScrapedPage,
  discoverLinks: boolean,
  text: string | undefined,
  context: ScrapeContext,
): Promise<void> {
  const { document } = page;
  const storedAt = deps.clock.now();
  if (!isStorableDocument(document)) {
    await deps.index?.remove(document.metadata.url, scope);
    return;
  }
  const { changeTracking: _changeTracking, ...kept } = document;
  const { cacheState: _cacheState, cachedAt: _cachedAt, ...metadata } = document.metadata;
  await deps.cache.put({
    key,
    url: cacheUrlKey(url),
    ...(context.teamId ? { teamId: context.teamId } : {}),
    document: { ...kept, metadata },
    storedAt,
    ...(discoverLinks ? { links: page.links } : {}),
  });
  if (deps.index && text !== undefined) {
    await deps.index.add({
      scope,
      url: document.metadata.url,
      title: stringOf(document.metadata.title),
      description: stringOf(document.metadata.description),
      text,
      storedAt,
    });
  }
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : Array.isArray(value) ? value.filter((entry) => typeof entry === 'string').join(', ') : '';
}
