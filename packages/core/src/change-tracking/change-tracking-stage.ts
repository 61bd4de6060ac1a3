import { isDeepStrictEqual } from 'node:util';
import { cacheUrlKey, siteOf } from '../cache/cache-key.js';
import { libraryTeamId } from '../cache/store-scope.js';
import type { FormatOf } from '../options/formats.js';
import type { ChangeHistory, PageSnapshot } from '../ports/change-history.js';
import type { Clock } from '../ports/clock.js';
import type { DocumentStage, DocumentStageInput } from '../scrape/document-stage.js';
import { gitDiff, type GitDiff } from './git-diff.js';
import { extractJson } from '../llm/extract-json.js';
import { fillSchemaFromStructuredData } from '../llm/fill-from-structured-data.js';
import { addTokens, addWarnings } from '../llm/json-stage.js';
import { readStructuredData } from '../llm/structured-data.js';
import type { LlmProvider } from '../ports/llm-provider.js';

/**
 * The changeTracking format: compares a page with the previous scrape of the same URL by the same
 * team under the same tag (ChangeHistory), then records this scrape as the next one's previous.
 *
 *   previous? --no--> new
 *      | yes
 *   status 404/410 --> removed
 *   markdown (whitespace-insensitive) or json fields differ --> changed (+ diff / json by mode)
 *   else --> same
 *
 * `visibility` is `hidden` for pages a crawl did not reach but its previous crawl did (the crawl
 * scrapes them again at its end and says so in the context), else `visible`.
 *
 * json mode compares fields extracted by the LLM provider (schema and/or prompt, its tokens added
 * to the document) when one is configured, else the schema's fields the page's structured data fills.
 */
export type ChangeStatus = 'new' | 'same' | 'changed' | 'removed';

export interface ChangeTrackingResult {
  previousScrapeAt: string | null;
  changeStatus: ChangeStatus;
  visibility: 'visible' | 'hidden';
  diff?: GitDiff;
  json?: Record<string, { previous: unknown; current: unknown }>;
}

const goneStatuses = new Set([404, 410]);

export function changeTrackingStage(deps: { history: ChangeHistory; clock: Clock; provider?: LlmProvider }): DocumentStage {
  return {
    formats: ['changeTracking'],
    needsMarkdown: true,
    run: async (input) => {
      const format = input.options.formats.find((entry): entry is FormatOf<'changeTracking'> => entry.type === 'changeTracking');
      if (!format) return;
      const teamId = input.context.teamId ?? libraryTeamId;
      const tag = format.tag ?? null;
      const url = input.document.metadata.sourceURL;
      const urlKey = cacheUrlKey(url);
      const previous = await deps.history.latest(teamId, tag, urlKey);
      const markdown = input.markdown ?? '';
      const filled = format.modes.includes('json') ? await fillFields(format, input, deps.provider) : undefined;
      const previousFields = filled && previous ? await previousExtraction(format, previous, markdown, filled, input, deps.provider) : undefined;
      const compared = previous && filled ? { ...previous, fields: previousFields } : previous;
      const result = compare(format, compared, { markdown, statusCode: input.document.metadata.statusCode, fields: filled?.fields });
      result.visibility = input.context.visibility ?? 'visible';
      input.document.changeTracking = result as unknown as Record<string, unknown>;
      if (filled) addWarning(input, filled.byModel ? undefined : jsonModeWarning(format, filled));
      await deps.history.record({
        teamId,
        tag,
        urlKey,
        url,
        site: siteOf(url),
        scrapedAt: deps.clock.now(),
        statusCode: input.document.metadata.statusCode,
        markdown,
        ...(filled ? { fields: filled.fields } : {}),
        ...(input.context.jobId ? { jobId: input.context.jobId } : {}),
      });
    },
  };
}

/** The comparison itself, pure: previous snapshot and current page in, the changeTracking object out. */
export function compare(
  format: Pick<FormatOf<'changeTracking'>, 'modes'>,
  previous: Pick<PageSnapshot, 'scrapedAt' | 'markdown' | 'fields' | 'statusCode'> | undefined,
  current: { markdown: string; statusCode: number; fields: Record<string, unknown> | undefined },
): ChangeTrackingResult {
  const base = { previousScrapeAt: previous ? new Date(previous.scrapedAt).toISOString() : null, visibility: 'visible' as const };
  if (!previous) return { ...base, changeStatus: 'new' };
  if (goneStatuses.has(current.statusCode)) return { ...base, changeStatus: 'removed' };
  const fieldChanges = current.fields ? changedFields(previous.fields ?? {}, current.fields) : {};
  const textChanged = squash(previous.markdown) !== squash(current.markdown);
  const hasFieldChanges = Object.keys(fieldChanges).length > 0;
  if (!textChanged && !hasFieldChanges) return { ...base, changeStatus: 'same' };
  return {
    ...base,
    changeStatus: 'changed',
    ...(format.modes.includes('git-diff') ? { diff: gitDiff(previous.markdown, current.markdown) } : {}),
    ...(format.modes.includes('json') ? { json: fieldChanges } : {}),
  };
}

function changedFields(previous: Record<string, unknown>, current: Record<string, unknown>) {
  const changes: Record<string, { previous: unknown; current: unknown }> = {};
  for (const name of new Set([...Object.keys(previous), ...Object.keys(current)])) {
    const before = previous[name] ?? null;
    const after = current[name] ?? null;
    if (!isDeepStrictEqual(before, after)) changes[name] = { previous: before, current: after };
  }
  return changes;
}

/** Whitespace does not make a change: runs of it count as one space. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The fields json mode compares, and the schema fields it could not fill. */
interface FilledFields {
  fields: Record<string, unknown>;
  missing: string[];
  /** Extracted by the LLM provider (no structured-data warning then). */
  byModel?: boolean;
}

/**
 * Without an LLM, json mode compares the schema's fields that the page's structured data fills
 * (JSON-LD, microdata, RDFa, OpenGraph, meta tags: core/src/llm/fill-from-structured-data.ts).
 */
async function fillFields(format: FormatOf<'changeTracking'>, input: DocumentStageInput, provider: LlmProvider | undefined): Promise<FilledFields> {
  if (provider && (format.schema || format.prompt))
    return { fields: await extractFields(format, input, provider, input.markdown ?? ''), missing: [], byModel: true };
  if (!format.schema) return { fields: {}, missing: [] };
  const fill = fillSchemaFromStructuredData(format.schema, readStructuredData(input.rawHtml ?? '', input.document.metadata.url));
  return { fields: fill.value, missing: fill.missing };
}

/** The model's extraction of `content` (the page now, or its previous markdown), its tokens added to the document. */
async function extractFields(
  format: FormatOf<'changeTracking'>,
  input: DocumentStageInput,
  provider: LlmProvider,
  content: string,
): Promise<Record<string, unknown>> {
  const result = await extractJson(provider, {
    ...(format.schema ? { schema: format.schema } : {}),
    ...(format.prompt ? { prompt: format.prompt } : {}),
    content,
    url: input.document.metadata.url,
    ...(input.context.signal ? { signal: input.context.signal } : {}),
  });
  addTokens(input.document, result.usage);
  addWarnings(input.document, result.warnings);
  return result.value && typeof result.value === 'object' && !Array.isArray(result.value) ? (result.value as Record<string, unknown>) : {};
}

/**
 * The previous scrape's fields to compare with: those it recorded; when it recorded none (it ran
 * without json mode, or its extraction found nothing), the current ones if the page's text has
 * not changed (same text, same extraction: no spurious `changed` with `previous: null`), else the
 * model's extraction of the previous markdown. Without a model and nothing recorded: none ({}).
 */
async function previousExtraction(
  format: FormatOf<'changeTracking'>,
  previous: PageSnapshot,
  markdown: string,
  filled: FilledFields,
  input: DocumentStageInput,
  provider: LlmProvider | undefined,
): Promise<Record<string, unknown>> {
  if (previous.fields && Object.keys(previous.fields).length > 0) return previous.fields;
  if (squash(previous.markdown) === squash(markdown)) return filled.fields;
  if (filled.byModel && provider) return extractFields(format, input, provider, previous.markdown);
  return {};
}

function schemaFieldNames(schema: Record<string, unknown> | undefined): string[] {
  const properties = schema?.properties;
  return properties && typeof properties === 'object' ? Object.keys(properties) : [];
}

function jsonModeWarning(format: FormatOf<'changeTracking'>, filled: FilledFields): string | undefined {
  if (schemaFieldNames(format.schema).length === 0) {
    return "changeTracking json mode compared no fields: without an LLM provider it needs a schema whose fields the page's structured data (JSON-LD, microdata, RDFa, OpenGraph, meta tags) fills";
  }
  if (filled.missing.length === 0) return undefined;
  return `changeTracking json mode: without an LLM provider only fields filled from structured data (JSON-LD, microdata, RDFa, OpenGraph, meta tags) are compared; not compared: ${filled.missing.join(', ')}`;
}

function addWarning(input: DocumentStageInput, warning: string | undefined) {
  if (!warning) return;
  input.document.warning = input.document.warning ? `${input.document.warning} ${warning}` : warning;
}
