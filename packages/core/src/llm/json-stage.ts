import { NotConfiguredError } from '../errors.js';
import type { ScrapeDocument } from '../document.js';
import type { FormatOf } from '../options/formats.js';
import type { LlmProvider, LlmUsage } from '../ports/llm-provider.js';
import type { DocumentStage, DocumentStageInput } from '../scrape/document-stage.js';
import { extractJson, type ExtractJsonOptions } from './extract-json.js';
import { fillSchemaFromStructuredData } from './fill-from-structured-data.js';
import { tokensOf } from './model-output-error.js';
import { readStructuredData } from './structured-data.js';

/**
 * The json format as a DocumentStage. With a provider: the page's markdown goes to the model
 * (extract-json.ts) and the answer lands under `json` (or `extract` for v1's extract format).
 * Without one: the schema's fields are filled from the page's structured data, with a warning
 * naming what was not found; a prompt without a schema, or a schema nothing fills, is a
 * NotConfiguredError that says how to configure a provider.
 *
 * Tokens used are added to `metadata.tokensUsed`: the scrape route, and the page worker of crawls
 * and batches, charge them to the team (see packages/core/src/llm/README.md).
 */
export interface JsonStageOptions extends ExtractJsonOptions {
  /** The model; absent means the structured-data path only. */
  provider?: LlmProvider;
}

/** How to configure a provider, for messages. */
export const providerHelp =
  'Configure one with OPENAI_BASE_URL / OPENAI_API_KEY / MODEL_NAME (any OpenAI-compatible server), OLLAMA_BASE_URL (and MODEL_NAME) or ANTHROPIC_API_KEY.';

export function createJsonStage(options: JsonStageOptions = {}): DocumentStage {
  return {
    formats: ['json'],
    needsMarkdown: true,
    run: async (input) => {
      for (const format of input.options.formats) {
        if (format.type !== 'json') continue;
        const key = format.resultKey ?? 'json';
        const result = options.provider ? await withModel(options.provider, format, input, options) : withoutModel(format, input);
        (input.document as unknown as Record<string, unknown>)[key] = result.value;
        addWarnings(input.document, result.warnings);
        if (result.usage) addTokens(input.document, result.usage);
      }
    },
  };
}

interface StageResult {
  value: unknown;
  warnings: string[];
  usage?: LlmUsage;
}

async function withModel(provider: LlmProvider, format: FormatOf<'json'>, input: DocumentStageInput, options: ExtractJsonOptions): Promise<StageResult> {
  return extractJson(
    provider,
    {
      ...(format.schema ? { schema: format.schema } : {}),
      ...(format.prompt ? { prompt: format.prompt } : {}),
      ...(format.systemPrompt ? { systemPrompt: format.systemPrompt } : {}),
      content: input.markdown ?? '',
      url: input.document.metadata.url,
      ...(input.context.signal ? { signal: input.context.signal } : {}),
    },
    options,
  );
}

function withoutModel(format: FormatOf<'json'>, input: DocumentStageInput): StageResult {
  if (!format.schema) {
    throw new NotConfiguredError(
      `The json format with only a prompt needs an LLM provider, and none is configured. ${providerHelp} Without one, give a schema: its fields are filled from the page's structured data (JSON-LD, microdata, OpenGraph, meta tags, a table).`,
    );
  }
  const data = readStructuredData(input.rawHtml ?? '', input.document.metadata.url);
  const fill = fillSchemaFromStructuredData(format.schema, data);
  if (fill.filled.length === 0) {
    throw new NotConfiguredError(
      `The json format needs an LLM provider, and none is configured; the page's structured data (JSON-LD, microdata, OpenGraph, meta tags, tables) has none of the schema's fields (${fill.missing.join(', ')}). ${providerHelp}`,
    );
  }
  const missing = fill.missing.length > 0 ? `; not found: ${fill.missing.join(', ')}` : '';
  return {
    value: fill.value,
    warnings: [
      `No LLM provider is configured: the json format was filled from the page's structured data (${fill.sources.join(', ')}): found ${fill.filled.join(', ')}${missing}. ${providerHelp}`,
    ],
  };
}

/** Appends warnings to the document's `warning` (one string, sentences joined). */
export function addWarnings(document: ScrapeDocument, warnings: string[]) {
  if (warnings.length === 0) return;
  document.warning = [document.warning, ...warnings].filter(Boolean).join(' ');
}

/** Adds a stage's model usage to `metadata.tokensUsed`, which the server charges to the team. */
export function addTokens(document: ScrapeDocument, usage: LlmUsage) {
  const tokens = tokensOf(usage);
  if (tokens <= 0) return;
  const previous = typeof document.metadata.tokensUsed === 'number' ? document.metadata.tokensUsed : 0;
  document.metadata.tokensUsed = previous + tokens;
}

/** Tokens a document's stages used now, for the server's charge: 0 when none, and for a cache hit (its answer cost nothing this time). */
export function tokensUsedBy(document: ScrapeDocument): number {
  if (document.metadata.cacheState === 'hit') return 0;
  const tokens = document.metadata.tokensUsed;
  return typeof tokens === 'number' && tokens > 0 ? tokens : 0;
}
