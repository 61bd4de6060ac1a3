import type { ScrapeDocument } from '../document.js';
import { NotConfiguredError } from '../errors.js';
import { validateAgainstSchema } from '../llm/json-schema-check.js';
import { providerHelp } from '../llm/json-stage.js';
import type { ExtractOptions } from '../options/extract-options.js';
import type { FormatSpec } from '../options/formats.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import { jobOfKind } from '../ports/job-store.js';
import type { AgentProgram, StepContext, StepResult } from './agent-program.js';
import { mergePages } from './merge-pages.js';
import { addPages, jobDocuments, pageKey, scrapeQueuedPages } from './step-pages.js';

/**
 * Extract as an agent job:
 *
 *   urls (globs expanded through the site's map) + web search (enableWebSearch, or a prompt
 *   without urls) -> at most `limit` pages -> each scraped with the json format (the model, or
 *   without one the page's structured data) -> the pages' answers merged (mergePages) and
 *   checked against the schema -> data, sources per field, warnings
 */
export interface ExtractState {
  phase: 'urls' | 'scrape' | 'merge' | 'done';
  startedAt: number;
  urls: string[];
  data?: unknown;
  sources?: Record<string, string[]>;
  warnings: string[];
}

/** A URL whose path ends in `/*`: the pages of the site below it. */
export const isGlob = (url: string) => /\/\*$/.test(url);

/** Whether a mapped link belongs to the glob's site: same port, same host or (with subdomains) one below it. */
function isWithin(link: string, base: string, includeSubdomains: boolean): boolean {
  const url = new URL(link);
  const site = new URL(base);
  if (url.port !== site.port) return false;
  const host = site.hostname.replace(/^www\./, '');
  const linkHost = url.hostname.replace(/^www\./, '');
  return linkHost === host || (includeSubdomains && linkHost.endsWith(`.${host}`));
}

/** Pages found by web search for a prompt, at most. */
export const webSearchPages = 5;

export const extractProgram: AgentProgram<ExtractState> = {
  kind: 'extract',
  initial: () => ({ phase: 'urls', startedAt: 0, urls: [], warnings: [] }),
  async step(context, state) {
    const { options } = jobOfKind(context.job, 'extract').request;
    if (state.phase === 'urls') {
      if (!context.llm && !options.schema) {
        throw new NotConfiguredError(
          `Extract with only a prompt needs an LLM provider, and none is configured. ${providerHelp} Without one, give a schema: its fields are filled from each page's structured data (JSON-LD, microdata, OpenGraph, meta tags, a table).`,
        );
      }
      state.startedAt = context.now();
      state.urls = await choosePages(context, options, state.warnings);
      await addPages(context, state.urls, options.limit);
      state.phase = 'scrape';
    }
    if (state.phase === 'scrape') {
      const isOverTime = options.timeoutMs !== undefined && context.now() - state.startedAt >= options.timeoutMs;
      if (isOverTime) {
        await context.jobs.cancelItems(context.job.id);
        state.warnings.push(`The job reached its timeout of ${options.timeoutMs} ms: only the pages read by then were used.`);
      } else if (!(await scrapeQueuedPages(context, pageOptions(options)))) {
        return more(state);
      }
      state.phase = 'merge';
    }
    if (state.phase === 'merge') await merge(context, options, state);
    return { state, done: true };
  },
};

const more = (state: ExtractState): StepResult<ExtractState> => ({ state, done: false });

/** Every page is scraped with the json format of the request, whatever formats scrapeOptions named. */
function pageOptions(options: ExtractOptions): ScrapeOptions {
  const json: FormatSpec = {
    type: 'json',
    ...(options.schema ? { schema: options.schema } : {}),
    ...(options.prompt ? { prompt: options.prompt } : {}),
    ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
  } as FormatSpec;
  return { ...options.scrapeOptions, formats: [json] };
}

async function choosePages(context: StepContext, options: ExtractOptions, warnings: string[]): Promise<string[]> {
  const urls: string[] = [];
  for (const url of options.urls) {
    if (!isGlob(url)) {
      urls.push(url);
      continue;
    }
    const base = url.replace(/\*$/, '');
    const links = await context.map(base, {
      limit: options.limit,
      includeSubdomains: options.includeSubdomains,
      sitemap: options.ignoreSitemap ? 'skip' : 'include',
      filterByPath: true,
    });
    urls.push(base, ...links.map((link) => link.url).filter((link) => isWithin(link, base, options.includeSubdomains)));
  }
  const wantsSearch = options.enableWebSearch || options.urls.length === 0;
  if (wantsSearch && options.prompt) {
    if (context.search) {
      const hits = await context.search.search({
        query: options.prompt,
        limit: Math.min(webSearchPages, options.limit),
        teamId: context.job.teamId,
        signal: context.signal,
      });
      urls.push(...hits.filter((hit) => hit.source === 'web').map((hit) => hit.url));
    } else if (options.urls.length === 0) {
      throw new NotConfiguredError(
        'Extract without `urls` finds its pages by web search, and no search provider is configured: give `urls`, or configure a search provider.',
      );
    } else {
      warnings.push('enableWebSearch was asked for, but no search provider is configured: only the given URLs were read.');
    }
  }
  const seen = new Set<string>();
  const unique = urls.filter((url) => {
    const key = pageKey(url);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (unique.length === 0) throw new Error('No page to read: the URLs, their globs and the web search found none');
  return unique.slice(0, options.limit);
}

async function merge(context: StepContext, options: ExtractOptions, state: ExtractState) {
  // In the order the pages were chosen (not the order they finished), so ties break the same way every time.
  const order = new Map(state.urls.map((url, index) => [pageKey(url), index]));
  const rank = (document: ScrapeDocument) => order.get(pageKey(document.metadata.sourceURL || document.metadata.url)) ?? order.size;
  const documents = (await jobDocuments(context)).filter(isReadable).sort((a, b) => rank(a) - rank(b));
  const answers = documents.filter((document) => document.json !== undefined && document.json !== null);
  if (answers.length === 0) {
    const errors = await context.jobs.listErrors(context.job.id);
    const reason = errors[0] ? `${errors[0].url}: ${errors[0].error}` : (documents[0]?.warning ?? 'the pages stated none of the fields asked for');
    throw new Error(`No data could be extracted from ${state.urls.length === 1 ? 'the page' : `any of the ${state.urls.length} pages`} (${reason})`);
  }
  const merged = mergePages(answers.map((document) => ({ url: document.metadata.sourceURL || document.metadata.url, value: document.json })));
  state.data = merged.value;
  if (options.showSources) state.sources = merged.sources;
  if (options.schema) {
    const check = validateAgainstSchema(options.schema, merged.value);
    if (!check.valid) state.warnings.push(`The merged data does not match the schema: ${check.problems.join('; ')}.`);
  }
  for (const document of documents) if (document.warning && !state.warnings.includes(document.warning)) state.warnings.push(document.warning);
}

/** Error pages (404, 500...) are read but not used. */
const isReadable = (document: ScrapeDocument) => document.metadata.statusCode < 400 && !document.metadata.error;

/** The fields of GET /extract/{id} that come from the state. */
export function extractView(state: ExtractState | undefined) {
  return {
    data: state?.data ?? null,
    ...(state?.sources ? { sources: state.sources } : {}),
    ...(state && state.warnings.length > 0 ? { warning: state.warnings.join(' ') } : {}),
  };
}
