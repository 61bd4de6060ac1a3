import { creditPrices } from '../billing/prices.js';
import type { ScrapeDocument } from '../document.js';
import { TimeoutError, asQuarryError } from '../errors.js';
import type { SearchRequest } from '../options/search-options.js';
import type { Clock } from '../ports/clock.js';
import type { SearchHit, SearchProvider } from '../ports/search-provider.js';

/**
 * One /search: ask the provider, drop what the request filters out, scrape the web results when
 * formats were asked (all at once, within the same timeout), and count the credits.
 *
 *   provider.search --timeout--> 408 "Request timed out"
 *     -> include/exclude domains, invalid URLs (ignoreInvalidURLs)
 *     -> scrape each web result concurrently (scrapeOptions) -> results + credits
 *
 * Credits: 1 per result; a scraped result costs what its scrape costs (at least 1).
 */
export interface SearchDeps {
  provider: SearchProvider;
  clock: Clock;
  /** Scrapes one result (the engine, with the team's cache and stages). */
  scrape: (url: string, context: { signal: AbortSignal }) => Promise<ScrapeDocument>;
  /** The team asking: the embedded index answers from that team's pages (unless shared). */
  teamId?: string;
}

export interface WebResult {
  url: string;
  title: string;
  description: string;
  position: number;
  category?: string;
  /** The scraped document's fields, when scrapeOptions asked for formats. */
  document?: ScrapeDocument;
}

export interface ImageResult {
  title: string;
  imageUrl: string;
  imageWidth?: number;
  imageHeight?: number;
  url: string;
  position: number;
}

export interface NewsResult {
  title: string;
  url: string;
  snippet: string;
  date?: string;
  imageUrl?: string;
  position: number;
}

export interface SearchOutcome {
  web: WebResult[];
  images: ImageResult[];
  news: NewsResult[];
  creditsUsed: number;
}

export async function runSearch(deps: SearchDeps, request: SearchRequest, signal?: AbortSignal): Promise<SearchOutcome> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = deps.clock.sleep(request.timeoutMs, controller.signal).then(
    () => 'timeout' as const,
    () => 'aborted' as const,
  );
  try {
    const work = search(deps, request, controller.signal);
    const outcome = await Promise.race([work, timer]);
    if (outcome === 'timeout' || outcome === 'aborted') throw new TimeoutError('Request timed out');
    return outcome;
  } finally {
    controller.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}

async function search(deps: SearchDeps, request: SearchRequest, signal: AbortSignal): Promise<SearchOutcome> {
  // Results the request filters out leave room: ask for more when filters apply, then cut to limit.
  const isFiltering = request.ignoreInvalidURLs || request.includeDomains.length > 0 || request.excludeDomains.length > 0;
  const hits = await deps.provider.search({
    query: request.query,
    limit: isFiltering ? Math.min(100, request.limit * 2) : request.limit,
    sources: request.sources,
    ...(request.tbs ? { tbs: request.tbs } : {}),
    ...(request.location ? { location: request.location } : {}),
    country: request.country,
    lang: request.lang,
    ...(request.categories.length > 0 ? { categories: request.categories } : {}),
    ...(deps.teamId !== undefined ? { teamId: deps.teamId } : {}),
    signal,
  });
  const kept = hits.filter((hit) => isWanted(hit, request));
  const bySource = (source: SearchHit['source']) => kept.filter((hit) => hit.source === source).slice(0, request.limit);
  const web: WebResult[] = bySource('web').map((hit, index) => ({
    url: hit.url,
    title: hit.title,
    description: hit.description,
    position: index + 1,
    ...(hit.category ? { category: hit.category } : {}),
  }));
  const images: ImageResult[] = bySource('images').map((hit, index) => ({
    title: hit.title,
    imageUrl: hit.imageUrl ?? hit.url,
    ...(hit.imageWidth !== undefined ? { imageWidth: hit.imageWidth } : {}),
    ...(hit.imageHeight !== undefined ? { imageHeight: hit.imageHeight } : {}),
    url: hit.url,
    position: index + 1,
  }));
  const news: NewsResult[] = bySource('news').map((hit, index) => ({
    title: hit.title,
    url: hit.url,
    snippet: hit.description,
    ...(hit.date !== undefined ? { date: new Date(hit.date).toISOString() } : {}),
    ...(hit.imageUrl ? { imageUrl: hit.imageUrl } : {}),
    position: index + 1,
  }));
  let creditsUsed = (images.length + news.length) * creditPrices.searchResult;
  if (request.scrapeOptions) {
    const scraped = await Promise.all(web.map((result) => scrapeResult(deps, result, signal)));
    creditsUsed += scraped.reduce((sum, credits) => sum + credits, 0);
  } else {
    creditsUsed += web.length * creditPrices.searchResult;
  }
  return { web, images, news, creditsUsed };
}

/** Scrapes one result into it; a page that fails keeps its search fields and says why. Returns its credits. */
async function scrapeResult(deps: SearchDeps, result: WebResult, signal: AbortSignal): Promise<number> {
  if (!isHttpUrl(result.url)) return creditPrices.searchResult;
  try {
    result.document = await deps.scrape(result.url, { signal });
    return Math.max(creditPrices.searchResult, result.document.metadata.creditsUsed);
  } catch (error) {
    if (signal.aborted) throw error;
    result.document = {
      metadata: {
        sourceURL: result.url,
        url: result.url,
        statusCode: 0,
        scrapeId: '',
        creditsUsed: 0,
        proxyUsed: 'basic',
        engine: 'none',
        error: asQuarryError(error).message,
      },
    };
    return creditPrices.searchResult;
  }
}

function isWanted(hit: SearchHit, request: SearchRequest): boolean {
  if (request.ignoreInvalidURLs && !isHttpUrl(hit.url)) return false;
  const host = hostOf(hit.url);
  const onDomain = (domain: string) => {
    const wanted = domain.toLowerCase().replace(/^www\./, '');
    return host === wanted || host.endsWith(`.${wanted}`);
  };
  if (request.includeDomains.length > 0 && !request.includeDomains.some(onDomain)) return false;
  if (request.excludeDomains.some(onDomain)) return false;
  return true;
}

function isHttpUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  } catch {
    return false;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}
