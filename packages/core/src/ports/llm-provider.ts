import type { JsonSchema } from './search-provider.js';

/**
 * The LlmProvider port: a language model that writes text and schema-constrained JSON. The json
 * format, extract, deep research, summaries and llms.txt descriptions all go through it.
 *
 * The caller keeps instructions in `system` and passes page content in `prompt` delimited as data
 * (see core/src/llm); the provider only talks to the model. Output of `generateObject` is parsed
 * JSON that the caller validates against the schema (never executed).
 *
 * Implementations: the OpenAI-compatible adapter (OpenAI, Ollama, vLLM, llama.cpp, LM Studio) and
 * the Anthropic adapter in adapters/src/llm. All pass `describeLlmProvider` against the local test
 * doubles that speak each wire protocol.
 */
export interface LlmUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface LlmTextRequest {
  /** Instructions: the only place they go. */
  system: string;
  /** The task input; page content in it is delimited as data. */
  prompt: string;
  maxOutputTokens?: number;
  signal?: AbortSignal;
}

export interface LlmObjectRequest extends LlmTextRequest {
  /** The JSON Schema the answer must follow (the provider passes it as structured output). */
  schema: JsonSchema;
  /** A short name for the schema (some providers require one). */
  schemaName?: string;
}

export interface LlmProvider {
  /** `provider/model`, for logs and metadata. */
  readonly model: string;
  /** The model's context budget in tokens (prompt + output); callers trim or chunk to fit. */
  readonly contextTokens: number;
  generateText(request: LlmTextRequest): Promise<{ text: string; usage: LlmUsage }>;
  generateObject(request: LlmObjectRequest): Promise<{ object: unknown; usage: LlmUsage }>;
  /** Tokens of a text as this model counts them (an estimate where the tokenizer is not known). */
  countTokens(text: string): number;
}
