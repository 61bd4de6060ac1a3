import type { ScrapeOptions } from '../options/scrape-options.js';

/**
 * Credits one document costs, per the API: 1 per page; a parsed PDF costs one per page; the
 * json format (and changeTracking in json mode) 5; the enhanced proxy 4 more. Failed pages cost 0.
 */
export const creditPrices = { page: 1, json: 5, enhancedProxySurcharge: 4 } as const;

export function creditsForDocument(input: {
  options: Pick<ScrapeOptions, 'formats'>;
  failed: boolean;
  parsedPdfPages?: number;
  proxyUsed?: 'basic' | 'enhanced';
}): number {
  if (input.failed) return 0;
  const usesJson = input.options.formats.some(
    (format) => format.type === 'json' || (format.type === 'changeTracking' && format.modes.includes('json')),
  );
  let credits = usesJson ? creditPrices.json : creditPrices.page;
  if (input.parsedPdfPages !== undefined) credits += Math.max(0, input.parsedPdfPages - 1) * creditPrices.page;
  if (input.proxyUsed === 'enhanced') credits += creditPrices.enhancedProxySurcharge;
  return credits;
}
