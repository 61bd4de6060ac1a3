import type { ScrapeOptions } from '../options/scrape-options.js';

/**
 * Every price in credits, per the API, in one table (pure: no I/O; billing.ts charges them):
 * - a page 1; a parsed PDF one per page; the json format (and changeTracking in json mode) 5; the
 *   enhanced proxy 4 more. Failed pages cost 0.
 * - a map 1; an interact call that finishes 1.
 * - a search: 1 per result, or a scraped result's own credits, at least 1 (search/run-search.ts
 *   adds them up).
 * - an agent job (extract, deep research, llms.txt): its pages' credits plus one credit per
 *   `tokensPerAgentCredit` model tokens, rounded up (agent-jobs/agent-job.ts). Other model tokens
 *   are recorded as tokens, not converted to credits.
 */
export const creditPrices = {
  page: 1,
  json: 5,
  enhancedProxySurcharge: 4,
  map: 1,
  interact: 1,
  searchResult: 1,
  tokensPerAgentCredit: 15,
} as const;

export function creditsForDocument(input: {
  options: Pick<ScrapeOptions, 'formats'>;
  failed: boolean;
  parsedPdfPages?: number;
  proxyUsed?: 'basic' | 'enhanced';
}): number {
  if (input.failed) return 0;
  const usesJson = input.options.formats.some((format) => format.type === 'json' || (format.type === 'changeTracking' && format.modes.includes('json')));
  let credits = usesJson ? creditPrices.json : creditPrices.page;
  if (input.parsedPdfPages !== undefined) credits += Math.max(0, input.parsedPdfPages - 1) * creditPrices.page;
  if (input.proxyUsed === 'enhanced') credits += creditPrices.enhancedProxySurcharge;
  return credits;
}
