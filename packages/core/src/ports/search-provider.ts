/**
 * The SearchProvider port: web search for /search, deep research and extract's enableWebSearch.
 *
 * Implementations: the embedded index (full-text search over every page this instance stored,
 * storage), SearXNG and a web-search API (adapters/src/search). All pass `describeSearchProvider`.
 */
export type JsonSchema = Record<string, unknown>;

export type SearchSource = 'web' | 'images' | 'news';

export interface SearchQuery {
  query: string;
  /** Results wanted per source (1-100). */
  limit: number;
  /** Sources to search (default web only). */
  sources?: SearchSource[];
  /** Google-style time filter: `qdr:h|d|w|m|y` or `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY`. */
  tbs?: string;
  location?: string;
  /** ISO 3166-1 alpha-2 country code. */
  country?: string;
  /** ISO 639-1 language code. */
  lang?: string;
  /** Provider categories (e.g. SearXNG's `general`, `it`, `science`), when the request names some. */
  categories?: string[];
  /** The team asking (the embedded index answers from its own pages unless the operator shares them). */
  teamId?: string;
  signal?: AbortSignal;
}

export interface SearchHit {
  source: SearchSource;
  url: string;
  title: string;
  /** A snippet or description of the result. */
  description: string;
  /** 1-based rank within its source. */
  position: number;
  /** Epoch ms when the provider knows when the page was published or stored. */
  date?: number;
  /** images: the image URL (url is the page it is on); news: the article's image. */
  imageUrl?: string;
  /** images: pixel size, when the provider knows it. */
  imageWidth?: number;
  imageHeight?: number;
  /** Provider category of a web result (e.g. `github`, `research`), when it has one. */
  category?: string;
}

export interface SearchProvider {
  /** `index`, `searxng`, ... for logs and metadata. */
  readonly name: string;
  search(query: SearchQuery): Promise<SearchHit[]>;
}
