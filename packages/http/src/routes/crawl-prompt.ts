import type { FastifyInstance } from 'fastify';
import { generateCrawlOptions, mergeGeneratedOptions, parseCrawlRequest, type CrawlJobRequest, type ParsedCrawlRequest } from '@quarry/core';
import { bodyObject, requireString, take } from '../server/body.js';
import type { ApiVersion } from '../server/request-context.js';
import type { Services } from '../server/services.js';

/**
 * A v2 crawl's `prompt`: the model turns it into crawl options (llm/crawl-prompt.ts), merged under
 * the request's explicit ones; its tokens are the team's. Without a model: 501 saying how to
 * configure one. `POST /v2/crawl/params-preview` answers the generated options without crawling.
 */
export interface PromptedCrawl {
  parsed: ParsedCrawlRequest;
  prompt?: NonNullable<CrawlJobRequest['prompt']>;
  warnings: string[];
}

interface Caller {
  teamId: string;
  keyId?: string;
}

export async function parsePromptedCrawl(services: Services, version: ApiVersion, body: Record<string, unknown>, caller: Caller): Promise<PromptedCrawl> {
  const parsed = parseCrawlRequest(version, body);
  if (parsed.prompt === undefined) return { parsed, warnings: [] };
  const generated = await generateOptions(services, parsed.url, parsed.prompt, caller);
  const merged = mergeGeneratedOptions(body, generated);
  return {
    parsed: parseCrawlRequest(version, merged.body),
    prompt: { text: parsed.prompt, generated: merged.generated as Record<string, unknown> },
    warnings: merged.warnings,
  };
}

async function generateOptions(services: Services, url: string, prompt: string, caller: Caller) {
  const generated = await generateCrawlOptions(services.llm, { url, prompt });
  const tokens = generated.usage.inputTokens + generated.usage.outputTokens;
  if (tokens > 0) await services.billing.charge(caller, 'crawl', { credits: 0, tokens });
  return generated;
}

export function crawlParamsPreviewRoute(app: FastifyInstance, services: Services) {
  app.post('/v2/crawl/params-preview', { config: { kind: 'crawl' } }, async (request) => {
    const { picked } = take(bodyObject(request.body), ['url', 'prompt']);
    const url = requireString(picked.url, 'url');
    const prompt = requireString(picked.prompt, 'prompt');
    const generated = await generateOptions(services, url, prompt, request.caller);
    const merged = mergeGeneratedOptions({ url }, generated);
    return { success: true, data: { url, ...merged.generated }, ...(merged.warnings.length > 0 ? { warning: merged.warnings.join(' ') } : {}) };
  });
}
