import { brandingFromProbe } from '../branding/brand-profile.js';
import type { ActionsResult, DocumentMetadata, ScrapeDocument } from '../document.js';
import { NotAvailableError, TargetError } from '../errors.js';
import { decodeBody } from '../html/decode-body.js';
import { checkSelectors } from '../html/clean-html.js';
import type { FormatSpec } from '../options/formats.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import { convertOffice } from '../documents/convert-office.js';
import { pdfToMarkdown } from '../pdf/index.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { ActionOutputs, Fetcher } from '../ports/fetcher.js';
import type { HtmlTransformer } from '../ports/html-transformer.js';
import { linkCapture, toBase64, type BlobLinks } from './capture-links.js';
import { contentKindOf } from './content-kind.js';
import { creditsForDocument } from '../billing/prices.js';
import { stagesFor, type DocumentStage } from './document-stage.js';
import { fetchWithEngines, type FetchExtras, type FetchedPage, type PageAnalyzer } from './fetch-with-engines.js';
import type { HtmlTransformInput } from './transform-html.js';
import { isRefusedThroughProxy, type ProxyPools, type ProxyTier } from './proxy-pools.js';

/**
 * One scrape, start to end:
 *
 *   options -> engine waterfall (fetch-with-engines.ts: http first, the browser when needed, when
 *              the page is script-rendered or blocked, or when http fails) -> content kind
 *     html -> HtmlTransformer (one parse: metadata, links, clean, markdown, html)
 *     pdf  -> pdfToMarkdown (or base64 when PDF parsing is off)
 *     docx, xlsx, ods, pptx, csv -> convertOffice (HTML) -> HtmlTransformer, all of it (no main-content cut)
 *     json -> fenced json block; text/xml -> as is
 *   -> document with only the asked-for formats, metadata and credits
 */
export interface ScrapeDeps {
  fetcher: Fetcher;
  browser?: Fetcher;
  /** What a browser-only option's error says to do when there is no browser. */
  browserHint?: string;
  transformer: HtmlTransformer;
  clock: Clock;
  ids: Ids;
  /** Where screenshots and action PDFs are stored; data URLs when absent. */
  blobs?: BlobLinks;
  /** The operator's proxy pools (empty pools: direct connections). */
  proxies: ProxyPools;
  /** Steps that add the formats needing more than the page (json, summary, changeTracking). */
  stages: readonly DocumentStage[];
  /** What each format no stage provides would need, for the refusal message. */
  missingProviders: Partial<Record<FormatSpec['type'], string>>;
}

import type { ScrapeContext } from './scrape-context.js';
export type { ScrapeContext };

/** A scraped page plus the links a crawl follows (all `<a href>` of the raw page, whatever the formats). */
export interface ScrapedPage {
  document: ScrapeDocument;
  links: string[];
}

export async function scrapePage(
  deps: ScrapeDeps,
  sourceUrl: string,
  target: URL,
  options: ScrapeOptions,
  context: ScrapeContext = {},
): Promise<ScrapeDocument> {
  return (await scrapePageWithLinks(deps, sourceUrl, target, options, context, false)).document;
}

export async function scrapePageWithLinks(
  deps: ScrapeDeps,
  sourceUrl: string,
  target: URL,
  options: ScrapeOptions,
  context: ScrapeContext = {},
  discoverLinks = true,
): Promise<ScrapedPage> {
  checkScrapeOptions(deps, options);
  const started = deps.clock.now();
  const want = transformWants(deps, options, discoverLinks);
  const analyze: PageAnalyzer = ({ html, url, status }) =>
    deps.transformer.transform({ ...transformInputOf(html, url, options, want), want: { ...want, signals: true }, status });
  const scrapeId = context.scrapeId ?? deps.ids.next();
  const keepPage = context.keepPage && context.teamId ? { keepPage: { teamId: context.teamId, scrapeId } } : {};
  const { page, proxyUsed } = await fetchThroughProxies(deps, target, options, { ...(context.signal ? { signal: context.signal } : {}), analyze, ...keepPage });
  const remainingMs = options.timeout - (deps.clock.now() - started);
  return buildDocument(deps, sourceUrl, page, options, { ...context, scrapeId }, remainingMs, want, proxyUsed);
}

/** Refuses selectors that do not parse and formats whose provider this engine lacks. */
export function checkScrapeOptions(deps: ScrapeDeps, options: ScrapeOptions): void {
  checkSelectors('includeTags', options.includeTags);
  checkSelectors('excludeTags', options.excludeTags);
  for (const format of options.formats) {
    const missing = deps.stages.some((stage) => stage.formats.includes(format.type)) ? undefined : deps.missingProviders[format.type];
    if (missing) throw new NotAvailableError(`\`formats: ${format.type}\` needs ${missing}, which is not available in this engine yet`);
  }
}

/** What the transform makes: the formats asked for, markdown for the stages, links for a crawl. */
export function transformWants(deps: ScrapeDeps, options: ScrapeOptions, discoverLinks: boolean): HtmlTransformInput['want'] {
  const wants = new Set(options.formats.map((format) => format.type));
  const stagesNeedMarkdown = stagesFor(deps.stages, options).some((stage) => stage.needsMarkdown);
  return {
    markdown: wants.has('markdown') || stagesNeedMarkdown,
    html: wants.has('html'),
    links: wants.has('links') || discoverLinks,
    images: wants.has('images'),
  };
}

function transformInputOf(html: string, url: URL, options: ScrapeOptions, want: HtmlTransformInput['want']): HtmlTransformInput {
  return {
    html,
    url: url.href,
    onlyMainContent: options.onlyMainContent,
    includeTags: options.includeTags,
    excludeTags: options.excludeTags,
    removeBase64Images: options.removeBase64Images,
    want,
  };
}

/** The engine waterfall through each proxy tier of the plan (proxy-pools.ts), until one is not refused. */
async function fetchThroughProxies(
  deps: ScrapeDeps,
  target: URL,
  options: ScrapeOptions,
  extras: Omit<FetchExtras, 'proxyUrl'>,
): Promise<{ page: FetchedPage; proxyUsed: ProxyTier }> {
  const { signal } = extras;
  const engines = { fetcher: deps.fetcher, ...(deps.browser ? { browser: deps.browser } : {}), ...(deps.browserHint ? { browserHint: deps.browserHint } : {}) };
  const plan = deps.proxies.plan(options.proxy);
  const started = deps.clock.now();
  for (const [index, tier] of plan.entries()) {
    const isLast = index === plan.length - 1;
    const timeout = options.timeout - (deps.clock.now() - started);
    try {
      const proxyUrl = deps.proxies.next(tier);
      const page = await fetchWithEngines(engines, deps.clock, target, index === 0 ? options : { ...options, timeout }, {
        ...extras,
        ...(proxyUrl ? { proxyUrl } : {}),
      });
      if (isLast || !isRefusedThroughProxy(page.response)) return { page, proxyUsed: tier };
    } catch (error) {
      if (isLast || signal?.aborted || !isRefusedThroughProxy(error)) throw error;
    }
  }
  throw new Error('unreachable: a proxy plan has at least one tier');
}

/** Turns a response (fetched, or a file given to parse) into the document of the asked-for formats. */
export async function buildDocument(
  deps: ScrapeDeps,
  sourceUrl: string,
  page: FetchedPage,
  options: ScrapeOptions,
  context: ScrapeContext,
  remainingMs: number,
  want: HtmlTransformInput['want'],
  proxyUsed: ProxyTier,
): Promise<ScrapedPage> {
  const { response, html } = page;
  const contentType = response.headers.get('content-type');
  const kind = contentKindOf(contentType, response.body);
  const wants = new Set(options.formats.map((format) => format.type));
  const stages = stagesFor(deps.stages, options);
  let markdown: string | undefined;
  const document: Omit<ScrapeDocument, 'metadata'> = {};
  let pageMetadata: Record<string, unknown> = {};
  let parsedPdfPages: number | undefined;
  let engineName = response.engine;
  let links: string[] = [];
  let pageHtml: string | undefined;

  switch (kind) {
    case 'html': {
      const text = html ?? decodeBody(response.body, contentType).text;
      pageHtml = text;
      // The waterfall already transformed the page it judged (the same html); otherwise do it now.
      const output =
        page.html !== undefined && page.transformed ? page.transformed : await deps.transformer.transform(transformInputOf(text, response.url, options, want));
      links = output.links ?? [];
      pageMetadata = output.metadata;
      markdown = output.markdown;
      if (output.markdown !== undefined && wants.has('markdown')) document.markdown = output.markdown;
      if (output.html !== undefined) document.html = output.html;
      if (wants.has('rawHtml')) document.rawHtml = text;
      if (output.warning) document.warning = output.warning;
      if (wants.has('links')) document.links = links;
      if (output.images) document.images = output.images;
      break;
    }
    case 'pdf': {
      engineName = 'pdf';
      if (options.parsePdf) {
        const pdf = await pdfToMarkdown(response.body, {
          ...(options.pdfMaxPages !== undefined ? { maxPages: options.pdfMaxPages } : {}),
          ...(context.signal ? { signal: context.signal } : {}),
        });
        parsedPdfPages = options.pdfMaxPages === undefined ? pdf.numPages : Math.min(pdf.numPages, options.pdfMaxPages);
        pageMetadata = { ...(pdf.title ? { title: pdf.title } : {}), numPages: pdf.numPages };
        markdown = pdf.markdown;
        if (wants.has('markdown')) document.markdown = pdf.markdown;
        if (wants.has('html')) document.html = pdf.markdown;
      } else {
        const base64 = toBase64(response.body);
        if (wants.has('markdown')) document.markdown = base64;
        if (wants.has('html')) document.html = base64;
      }
      if (wants.has('rawHtml')) document.rawHtml = toBase64(response.body);
      break;
    }
    case 'docx':
    case 'xlsx':
    case 'ods':
    case 'pptx':
    case 'csv': {
      engineName = kind;
      const converted = await convertOffice(kind, response.body, contentType);
      const output = await deps.transformer.transform(transformInputOf(converted.html, response.url, { ...options, onlyMainContent: false }, want));
      links = output.links ?? [];
      pageMetadata = { ...output.metadata, ...converted.metadata };
      markdown = output.markdown;
      if (output.markdown !== undefined && wants.has('markdown')) document.markdown = output.markdown;
      if (output.html !== undefined) document.html = output.html;
      if (wants.has('rawHtml')) document.rawHtml = converted.html;
      if (output.warning) document.warning = output.warning;
      if (wants.has('links')) document.links = links;
      if (output.images) document.images = output.images;
      break;
    }
    case 'json':
    case 'text':
    case 'xml': {
      const { text } = decodeBody(response.body, contentType);
      markdown = kind === 'json' ? fencedJson(text) : kind === 'xml' ? `\`\`\`xml\n${text.trim()}\n\`\`\`` : text;
      if (wants.has('markdown')) document.markdown = markdown;
      if (wants.has('html')) document.html = text;
      if (wants.has('rawHtml')) document.rawHtml = text;
      if (wants.has('links')) document.links = [];
      break;
    }
    case 'unsupported':
      throw new TargetError(
        'unsupported-type',
        `Unsupported content type ${JSON.stringify(contentType)} at ${response.url.href}: Quarry reads HTML, PDF, DOCX, XLSX, ODS, PPTX, CSV, JSON, XML and text`,
      );
  }
  void remainingMs;
  const browser = response.browser;
  if (browser?.screenshot && wants.has('screenshot')) document.screenshot = await linkCapture(browser.screenshot, deps.blobs);
  if (browser?.actions && options.actions.length > 0) document.actions = await linkActions(browser.actions, deps.blobs);
  if (wants.has('branding') && browser?.branding) document.branding = brandingFromProbe(browser.branding) as Record<string, unknown>;

  const failed = response.status >= 400;
  const metadata: DocumentMetadata = {
    ...pageMetadata,
    sourceURL: sourceUrl,
    url: response.url.href,
    statusCode: response.status,
    ...(contentType ? { contentType } : {}),
    scrapeId: context.scrapeId ?? deps.ids.next(),
    proxyUsed,
    engine: engineName,
    creditsUsed: creditsForDocument({ options, failed: false, proxyUsed, ...(parsedPdfPages !== undefined ? { parsedPdfPages } : {}) }),
    ...(failed ? { error: `The page answered HTTP ${response.status}` } : {}),
  };
  const built: ScrapeDocument = { ...document, metadata };
  for (const stage of stages) {
    await stage.run({ document: built, markdown: stage.needsMarkdown ? (markdown ?? '') : undefined, rawHtml: pageHtml, options, context });
  }
  return { document: built, links };
}

function fencedJson(text: string): string {
  let pretty = text.trim();
  try {
    pretty = JSON.stringify(JSON.parse(pretty), null, 2);
  } catch {
    // Not valid JSON after all: show it as it came.
  }
  const fence = pretty.includes('```') ? '~~~~' : '```';
  return `${fence}json\n${pretty}\n${fence}`;
}

async function linkActions(outputs: ActionOutputs, blobs: BlobLinks | undefined): Promise<ActionsResult> {
  return {
    screenshots: await Promise.all(outputs.screenshots.map((capture) => linkCapture(capture, blobs))),
    scrapes: outputs.scrapes,
    javascriptReturns: outputs.javascriptReturns,
    pdfs: await Promise.all(outputs.pdfs.map((capture) => linkCapture(capture, blobs))),
  };
}
