import { createAnthropicLlm, createOpenAiCompatibleLlm } from '@quarry/adapters';
import { ValidationError, createJsonStage, createSummaryStage, type DocumentStage, type LlmProvider, type ServerConfig } from '@quarry/core';

/**
 * The LLM part of the composition: which provider the configuration names (QUARRY_LLM_PROVIDER,
 * or in `auto` the first configured of OpenAI-compatible, Ollama, Anthropic) and the document
 * stages built on it. With no provider the json stage still runs (structured data fills what it
 * can) and the summary format is refused up front.
 */
export const llmDefaults = {
  openai: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', contextTokens: 128_000 },
  ollama: { contextTokens: 4_096 },
  anthropic: { model: 'claude-sonnet-4-5', contextTokens: 200_000 },
} as const;

type ProviderKind = 'openai' | 'ollama' | 'anthropic';

export function llmProviderKind(config: ServerConfig): ProviderKind | undefined {
  if (config.QUARRY_LLM_PROVIDER === 'none') return undefined;
  if (config.QUARRY_LLM_PROVIDER !== 'auto') return config.QUARRY_LLM_PROVIDER;
  if (config.OPENAI_BASE_URL || config.OPENAI_API_KEY) return 'openai';
  if (config.OLLAMA_BASE_URL) return 'ollama';
  if (config.ANTHROPIC_API_KEY) return 'anthropic';
  return undefined;
}

/** The configured provider, or undefined when none is. A provider named but not configured is an error. */
export function buildLlmProvider(config: ServerConfig): LlmProvider | undefined {
  const kind = llmProviderKind(config);
  const common = { timeoutMs: config.QUARRY_LLM_TIMEOUT_MS, maxRetries: config.QUARRY_LLM_MAX_RETRIES };
  const structuredOutput = config.QUARRY_LLM_STRUCTURED_OUTPUT === 'tool' ? 'tool' : 'native';
  switch (kind) {
    case undefined:
      return undefined;
    case 'openai': {
      const isOpenAi = !config.OPENAI_BASE_URL;
      if (!isOpenAi && !config.MODEL_NAME) throw missing('MODEL_NAME', 'OPENAI_BASE_URL names a server other than OpenAI: set MODEL_NAME to one of its models');
      if (isOpenAi && !config.OPENAI_API_KEY)
        throw missing('OPENAI_API_KEY', 'QUARRY_LLM_PROVIDER=openai needs OPENAI_API_KEY, or OPENAI_BASE_URL for another OpenAI-compatible server');
      return createOpenAiCompatibleLlm({
        baseUrl: config.OPENAI_BASE_URL ?? llmDefaults.openai.baseUrl,
        ...(config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY } : {}),
        model: config.MODEL_NAME ?? llmDefaults.openai.model,
        providerName: isOpenAi ? 'openai' : 'openai-compatible',
        contextTokens: config.QUARRY_LLM_CONTEXT_TOKENS ?? llmDefaults.openai.contextTokens,
        structuredOutput,
        ...common,
      });
    }
    case 'ollama': {
      if (!config.OLLAMA_BASE_URL) throw missing('OLLAMA_BASE_URL', 'QUARRY_LLM_PROVIDER=ollama needs OLLAMA_BASE_URL');
      if (!config.MODEL_NAME) throw missing('MODEL_NAME', 'OLLAMA_BASE_URL is set: set MODEL_NAME to a model the Ollama server has pulled');
      const root = config.OLLAMA_BASE_URL.replace(/\/+$/, '');
      return createOpenAiCompatibleLlm({
        baseUrl: root.endsWith('/v1') ? root : `${root}/v1`,
        model: config.MODEL_NAME,
        providerName: 'ollama',
        contextTokens: config.QUARRY_LLM_CONTEXT_TOKENS ?? llmDefaults.ollama.contextTokens,
        structuredOutput,
        ...common,
      });
    }
    case 'anthropic': {
      if (!config.ANTHROPIC_API_KEY) throw missing('ANTHROPIC_API_KEY', 'QUARRY_LLM_PROVIDER=anthropic needs ANTHROPIC_API_KEY');
      return createAnthropicLlm({
        apiKey: config.ANTHROPIC_API_KEY,
        ...(config.ANTHROPIC_BASE_URL ? { baseUrl: config.ANTHROPIC_BASE_URL } : {}),
        model: config.MODEL_NAME ?? llmDefaults.anthropic.model,
        contextTokens: config.QUARRY_LLM_CONTEXT_TOKENS ?? llmDefaults.anthropic.contextTokens,
        ...common,
      });
    }
  }
}

/** The document stages of the LLM features: json always (model or structured data), summary with a model. */
export function llmStages(provider: LlmProvider | undefined): DocumentStage[] {
  return provider ? [createJsonStage({ provider }), createSummaryStage({ provider })] : [createJsonStage()];
}

function missing(field: string, message: string) {
  return new ValidationError(`environment variable ${message}`, field);
}
