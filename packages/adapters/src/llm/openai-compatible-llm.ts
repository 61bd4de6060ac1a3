import { AiSdkLlm } from './ai-sdk-llm.js';

/**
 * Any server that speaks OpenAI chat completions: OpenAI itself, Ollama (`<OLLAMA_BASE_URL>/v1`),
 * vLLM, llama.cpp's server, LM Studio. Structured output uses `response_format: json_schema`
 * (not strict: user schemas rarely meet OpenAI's strict rules), or one forced tool call with
 * `structuredOutput: 'tool'` for servers without JSON-schema output.
 *
 *   const llm = createOpenAiCompatibleLlm({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', ... });
 */
export interface OpenAiCompatibleLlmOptions {
  /** Base URL of the API, including `/v1` (e.g. `https://api.openai.com/v1`). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** A short name for the server (`openai`, `ollama`...), shown as `name/model`. */
  providerName: string;
  contextTokens: number;
  timeoutMs: number;
  maxRetries: number;
  structuredOutput: 'native' | 'tool';
  fetch?: typeof globalThis.fetch;
}

export function createOpenAiCompatibleLlm(options: OpenAiCompatibleLlmOptions): AiSdkLlm {
  // The provider package (and the AI SDK under it) loads on the first call: see load-ai-sdk.ts.
  const model = async () => {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    const provider = createOpenAICompatible({
      name: options.providerName,
      baseURL: options.baseUrl.replace(/\/+$/, ''),
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      supportsStructuredOutputs: true,
      includeUsage: true,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    return provider.chatModel(options.model);
  };
  return new AiSdkLlm({
    name: `${options.providerName}/${options.model}`,
    model,
    contextTokens: options.contextTokens,
    timeoutMs: options.timeoutMs,
    maxRetries: options.maxRetries,
    structuredOutput: options.structuredOutput,
    providerOptions: { openaiCompatible: { strictJsonSchema: false } },
  });
}
