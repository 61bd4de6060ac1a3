import type { APICallError } from 'ai';
import { ModelOutputError, QuarryError, TimeoutError, type LlmUsage } from '@quarry/core';
import { loadedAiSdk } from './load-ai-sdk.js';

/**
 * AI SDK failures as Quarry errors, at the adapter boundary:
 *
 *   no JSON in the answer            -> ModelOutputError (the caller may ask for a repair)
 *   timeout                          -> TimeoutError
 *   cannot connect, 429, 5xx         -> unavailable (503), after the SDK's retries with backoff
 *   401/403                          -> not_configured (the key is wrong: an operator problem)
 *   other 4xx                        -> internal, with the provider's message
 */
export function toQuarryLlmError(error: unknown, model: string, timeoutMs: number): unknown {
  if (error instanceof QuarryError) return error;
  // The SDK loads before every call (load-ai-sdk.ts): when it is not loaded, the error is not one of its own.
  const sdk = loadedAiSdk();
  if (!sdk)
    return new QuarryError('internal', `The LLM provider (${model}) failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  const { APICallError, NoObjectGeneratedError, RetryError } = sdk;
  if (NoObjectGeneratedError.isInstance(error)) {
    return new ModelOutputError(error.message, error.text ?? '', usageOf(error.usage), error);
  }
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (isTimeout(last) || isTimeout(error)) {
    return new TimeoutError(`The LLM provider (${model}) did not answer within ${timeoutMs} ms`, { cause: error });
  }
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    const attempts = RetryError.isInstance(error) ? ` after ${error.errors.length} attempts` : '';
    const reason = providerMessage(last);
    if (status === undefined || status === 429 || status >= 500) {
      const what = status === undefined ? `could not be reached (${reason})` : `answered HTTP ${status}${reason ? `: ${reason}` : ''}`;
      return new QuarryError('unavailable', `The LLM provider (${model}) ${what}${attempts}`, {
        cause: error,
        retryable: true,
        details: { provider: model, ...(status ? { status } : {}) },
      });
    }
    if (status === 401 || status === 403) {
      return new QuarryError('not_configured', `The LLM provider (${model}) refused the API key (HTTP ${status}); check OPENAI_API_KEY or ANTHROPIC_API_KEY`, {
        cause: error,
      });
    }
    return new QuarryError('internal', `The LLM provider (${model}) refused the request (HTTP ${status})${reason ? `: ${reason}` : ''}`, { cause: error });
  }
  return new QuarryError('internal', `The LLM provider (${model}) failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

export function usageOf(usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined): LlmUsage {
  return { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0 };
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || /timeout of \d+ms exceeded/i.test(error.message));
}

/** The provider's own error message from its JSON body, short; never the whole body. */
function providerMessage(error: APICallError): string {
  const body = error.responseBody;
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
      const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
      if (typeof message === 'string') return message.slice(0, 300);
    } catch {
      // Not JSON: fall back to the SDK's message.
    }
  }
  return error.message.slice(0, 300);
}
