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
  // The provider package (and the AI SDK under it) loads on the first call: see load-ai-sdk.ts.
  const model = async () => {
    const { createAnthropic } = await import('@ai-sdk/anthropic');
    const provider = createAnthropic({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl.replace(/\/+$/, '') } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    return provider(options.model);
  };
  return new AiSdkLlm({
    name: `anthropic/${options.model}`,
    model,
    contextTokens: options.contextTokens,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    structuredOutput: 'native',
    providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } },
  });
}
