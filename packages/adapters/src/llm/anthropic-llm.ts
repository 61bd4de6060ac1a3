import { createAnthropic } from '@ai-sdk/anthropic';
import { AiSdkLlm } from './ai-sdk-llm.js';

/**
 * Anthropic's messages API. Structured output is one forced tool call whose input is the answer
 * (the SDK's JSON tool, which every Claude model supports); models that refuse forced tool use get
 * the native output format instead (the SDK decides).
 *
 *   const llm = createAnthropicLlm({ apiKey, model: 'claude-sonnet-4-5', ... });
 */
export interface AnthropicLlmOptions {
  apiKey: string;
  model: string;
  /** Default `https://api.anthropic.com/v1`; a local double in tests. */
  baseUrl?: string;
  contextTokens: number;
  timeoutMs: number;
  maxRetries: number;
  fetch?: typeof globalThis.fetch;
}

export function createAnthropicLlm(options: AnthropicLlmOptions): AiSdkLlm {
  const provider = createAnthropic({
    apiKey: options.apiKey,
    ...(options.baseUrl ? { baseURL: options.baseUrl.replace(/\/+$/, '') } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return new AiSdkLlm({
    name: `anthropic/${options.model}`,
    model: provider(options.model),
    contextTokens: options.contextTokens,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    structuredOutput: 'native',
    providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } },
  });
}
