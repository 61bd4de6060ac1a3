import { ValidationError } from '../errors.js';
import type { LlmProvider, LlmUsage } from '../ports/llm-provider.js';
import type { JsonSchema } from '../ports/search-provider.js';
import { validateAgainstSchema } from './json-schema-check.js';
import { mergeExtracted } from './merge-extracted.js';
import { ModelOutputError, addUsage } from './model-output-error.js';
import { extractionPrompt, repairPrompt } from './prompt.js';
import { chunkByTokens } from './token-budget.js';

/**
 * Structured extraction from page content with a model:
 *
 *   budget = context - output reserve - instructions
 *   content -> one piece, or parts of `budget` tokens (at most `maxParts`; the rest is dropped with a warning)
 *   each part (all at once) -> generateObject -> validate (ajv) -> on failure one repair call with the problems
 *   parts -> mergeExtracted -> validate again -> warnings for what still does not match
 *
 * The schema is only ever validated against, never executed. Usage counts every call made.
 */
export interface ExtractJsonInput {
  schema?: JsonSchema;
  prompt?: string;
  systemPrompt?: string;
  /** The page as markdown. */
  content: string;
  url?: string;
  signal?: AbortSignal;
}

export interface ExtractJsonOptions {
  /** Tokens kept free for the answer (default 4096, or a quarter of a small context). */
  maxOutputTokens?: number;
  /** Parts of a long page read at most (default 4); the rest is left out with a warning. */
  maxParts?: number;
}

export interface ExtractJsonResult {
  value: unknown;
  usage: LlmUsage;
  warnings: string[];
}

/** What the model is asked for when the caller gave only a prompt. */
export const promptOnlySchema: JsonSchema = { type: 'object', additionalProperties: true };

export const extractDefaults = { maxOutputTokens: 4096, maxParts: 4, minContentTokens: 256 } as const;

export async function extractJson(provider: LlmProvider, input: ExtractJsonInput, options: ExtractJsonOptions = {}): Promise<ExtractJsonResult> {
  const maxParts = options.maxParts ?? extractDefaults.maxParts;
  const outputTokens = options.maxOutputTokens ?? Math.min(extractDefaults.maxOutputTokens, Math.floor(provider.contextTokens / 4));
  const schema = input.schema ?? promptOnlySchema;
  const instructions = extractionPrompt({ ...input, content: '', part: { index: 0, count: 2 } });
  const overhead = provider.countTokens(instructions.system) + provider.countTokens(instructions.prompt) + provider.countTokens(JSON.stringify(schema));
  const budget = provider.contextTokens - outputTokens - overhead;
  if (budget < extractDefaults.minContentTokens) {
    throw new ValidationError(
      `\`prompt\` is too long for the model: the prompt, system prompt and schema take about ${overhead} tokens, and ${provider.model} has ${provider.contextTokens} (with ${outputTokens} kept for the answer)`,
      'prompt',
    );
  }
  const warnings: string[] = [];
  let parts = provider.countTokens(input.content) <= budget ? [input.content] : chunkByTokens(input.content, budget, (text) => provider.countTokens(text));
  if (parts.length === 0) parts = [''];
  if (parts.length > maxParts) {
    warnings.push(
      `The page is longer than ${provider.model} can read at once: only the first ${maxParts} of ${parts.length} parts (about ${maxParts * budget} tokens) were read.`,
    );
    parts = parts.slice(0, maxParts);
  }

  // Parts are asked at once: a long page costs the time of one part (and its repair), not of all.
  const answers = await Promise.all(
    parts.map((content, index) => {
      const part = parts.length > 1 ? { index, count: parts.length } : undefined;
      const messages = extractionPrompt({ ...input, content, ...(part ? { part } : {}) });
      return answerWithRepair(provider, messages, schema, Boolean(input.schema), outputTokens, input.signal);
    }),
  );
  const usage = addUsage(...answers.map((answer) => answer.usage));
  answers.forEach((answer, index) => {
    if (answer.problems.length === 0) return;
    const which = parts.length > 1 ? ` for part ${index + 1}` : '';
    warnings.push(`The model's answer${which} still did not match the schema after one repair attempt: ${answer.problems.join('; ')}.`);
  });
  const values = answers.map((answer) => answer.value);
  const value = values.length === 1 ? values[0] : mergeExtracted(values);
  if (values.length > 1 && input.schema) {
    const merged = validateAgainstSchema(input.schema, value);
    if (!merged.valid) warnings.push(`The answers of the page's parts, merged, do not match the schema: ${merged.problems.join('; ')}.`);
  }
  return { value: value ?? null, usage, warnings };
}

interface Answer {
  value: unknown;
  usage: LlmUsage;
  /** Empty when the answer is valid. */
  problems: string[];
}

async function answerWithRepair(
  provider: LlmProvider,
  messages: { system: string; prompt: string },
  schema: JsonSchema,
  isCallerSchema: boolean,
  maxOutputTokens: number,
  signal: AbortSignal | undefined,
): Promise<Answer> {
  const ask = (request: { system: string; prompt: string }) => askOnce(provider, request, schema, isCallerSchema, maxOutputTokens, signal);
  const first = await ask(messages);
  if (first.problems.length === 0) return first;
  const second = await ask(repairPrompt(messages, first.text, first.problems));
  const usage = addUsage(first.usage, second.usage);
  // Keep the repaired answer when it is JSON at all; otherwise whatever the first one was.
  const value = second.value === null && first.value !== null ? first.value : second.value;
  return { value, usage, problems: second.problems };
}

async function askOnce(
  provider: LlmProvider,
  messages: { system: string; prompt: string },
  schema: JsonSchema,
  isCallerSchema: boolean,
  maxOutputTokens: number,
  signal: AbortSignal | undefined,
): Promise<Answer & { text: string }> {
  try {
    const { object, usage } = await provider.generateObject({
      ...messages,
      schema,
      schemaName: 'extraction',
      maxOutputTokens,
      ...(signal ? { signal } : {}),
    });
    const check = isCallerSchema
      ? validateAgainstSchema(schema, object)
      : isObject(object)
        ? { problems: [] }
        : { problems: ['(root): must be a JSON object'] };
    return { value: object, usage, problems: check.problems, text: JSON.stringify(object) };
  } catch (error) {
    if (!(error instanceof ModelOutputError)) throw error;
    return { value: null, usage: error.usage, problems: [`the answer was not valid JSON (${error.message})`], text: error.text };
  }
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
