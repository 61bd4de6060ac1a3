import type { LanguageModel } from 'ai';
import { ModelOutputError, estimateTokens, type LlmObjectRequest, type LlmProvider, type LlmTextRequest } from '@quarry/core';
import { loadAiSdk } from './load-ai-sdk.js';
import { toQuarryLlmError, usageOf } from './llm-error.js';

/**
 * An LlmProvider over any AI SDK language model: the OpenAI-compatible and Anthropic adapters are
 * this class with their model. The SDK retries 429, 5xx and connection failures with exponential
 * backoff (honouring Retry-After); every call has a timeout; failures leave as Quarry errors.
 *
 * Structured output comes two ways:
 *   native  the provider's JSON-schema output (OpenAI `response_format: json_schema`, Anthropic's
 *           JSON tool or output format, chosen by the SDK)
 *   tool    one forced tool call whose input is the answer (servers without JSON-schema output)
 */
export interface AiSdkLlmOptions {
  /** `provider/model`, shown in logs, errors and metadata. */
  name: string;
  /** The model, or what makes it on the first call (so the provider's package loads only then). */
  model: LanguageModel | (() => Promise<LanguageModel>);
  contextTokens: number;
  timeoutMs: number;
  /** Retries after the first attempt on 429, 5xx and connection failures. */
  maxRetries: number;
  structuredOutput: 'native' | 'tool';
  /** Provider-specific options passed on every call (e.g. non-strict JSON schema for OpenAI). */
  providerOptions?: Record<string, Record<string, string | number | boolean | null>>;
  countTokens?: (text: string) => number;
}

const answerTool = 'answer';

export class AiSdkLlm implements LlmProvider {
  readonly model: string;
  readonly contextTokens: number;
  private languageModel: Promise<LanguageModel> | undefined;

  constructor(private readonly options: AiSdkLlmOptions) {
    this.model = options.name;
    this.contextTokens = options.contextTokens;
  }

  countTokens(text: string): number {
    return (this.options.countTokens ?? estimateTokens)(text);
  }

  async generateText(request: LlmTextRequest): Promise<{ text: string; usage: { inputTokens: number; outputTokens: number } }> {
    try {
      const { generateText } = await loadAiSdk();
      const result = await generateText({ ...(await this.callSettings(request)), system: request.system, prompt: request.prompt });
      return { text: result.text, usage: usageOf(result.usage) };
    } catch (error) {
      throw toQuarryLlmError(error, this.model, this.options.timeoutMs);
    }
  }

  async generateObject(request: LlmObjectRequest): Promise<{ object: unknown; usage: { inputTokens: number; outputTokens: number } }> {
    try {
      return this.options.structuredOutput === 'tool' ? await this.objectByTool(request) : await this.objectByOutput(request);
    } catch (error) {
      throw toQuarryLlmError(error, this.model, this.options.timeoutMs);
    }
  }

  private async objectByOutput(request: LlmObjectRequest) {
    const { generateText, jsonSchema, Output } = await loadAiSdk();
    const result = await generateText({
      ...(await this.callSettings(request)),
      system: request.system,
      prompt: request.prompt,
      output: Output.object({ schema: jsonSchema(request.schema), name: request.schemaName ?? 'answer' }),
    });
    return { object: result.output as unknown, usage: usageOf(result.usage) };
  }

  private async objectByTool(request: LlmObjectRequest) {
    const { generateText, jsonSchema, tool } = await loadAiSdk();
    const result = await generateText({
      ...(await this.callSettings(request)),
      system: `${request.system}\n\nGive your answer by calling the \`${answerTool}\` tool.`,
      prompt: request.prompt,
      tools: { [answerTool]: tool({ description: 'Submit the answer as JSON.', inputSchema: jsonSchema(request.schema) }) },
      toolChoice: { type: 'tool', toolName: answerTool },
    });
    const call = result.toolCalls.find((entry) => entry.toolName === answerTool);
    if (!call || ('invalid' in call && call.invalid)) {
      const text = call ? JSON.stringify(call.input) : result.text;
      throw new ModelOutputError(call ? 'The tool call input was not valid JSON' : 'The model did not call the answer tool', text ?? '', usageOf(result.usage));
    }
    return { object: call.input as unknown, usage: usageOf(result.usage) };
  }

  private async callSettings(request: LlmTextRequest) {
    const { model } = this.options;
    this.languageModel ??= typeof model === 'function' ? model() : Promise.resolve(model);
    return {
      model: await this.languageModel,
      maxRetries: this.options.maxRetries,
      timeout: this.options.timeoutMs,
      ...(request.maxOutputTokens ? { maxOutputTokens: request.maxOutputTokens } : {}),
      ...(request.signal ? { abortSignal: request.signal } : {}),
      ...(this.options.providerOptions ? { providerOptions: this.options.providerOptions } : {}),
      temperature: 0,
    };
  }
}
