import { TargetError, TimeoutError } from '@quarry/core';

/**
 * One JSON request to a search service, its failures as core errors: a refused connection or a
 * non-2xx answer is a TargetError naming the provider, the caller's abort a TimeoutError.
 */
export async function requestJson(provider: string, url: URL, init: RequestInit & { signal?: AbortSignal | undefined }): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw new TimeoutError('Request timed out', { cause: error });
    throw new TargetError('connection', `${provider} at ${url.origin} could not be reached: ${(error as Error).message}`, { cause: error, retryable: true });
  }
  const text = await response.text();
  if (!response.ok) {
    throw new TargetError('http-status', `${provider} answered HTTP ${response.status}: ${text.slice(0, 200)}`, {
      details: { status: response.status },
      retryable: response.status >= 500 || response.status === 429,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new TargetError('parse', `${provider} answered something that is not JSON: ${text.slice(0, 200)}`, { cause: error });
  }
}

export function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function arrayOf(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null) : [];
}

export function dateOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
