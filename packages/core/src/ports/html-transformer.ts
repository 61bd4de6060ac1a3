import type { ElementRuleOverrides } from '../markdown/index.js';
import type { PageLimits } from '../html/page-limits.js';
import { transformHtml, type HtmlTransformInput, type HtmlTransformOutput } from '../scrape/transform-html.js';

/**
 * Where HTML becomes formats. Conversion is the CPU-heavy step of every scrape, so adapters may
 * run it on worker threads (`WorkerPoolTransformer`); the default runs it inline. Input and output
 * are plain data (structured-clone safe). Errors are thrown as plain Errors and never leave a pool
 * worker broken.
 */
export interface HtmlTransformer {
  transform(input: HtmlTransformInput): Promise<HtmlTransformOutput>;
  close?(): Promise<void>;
}

export const inlineHtmlTransformer: HtmlTransformer = {
  transform: async (input) => transformHtml(input),
};

/** The inline transformer with markdown element rules of one's own (functions stay on this thread). */
export function inlineHtmlTransformerWith(elementRules: ElementRuleOverrides): HtmlTransformer {
  return { transform: async (input) => transformHtml(input, elementRules) };
}

/** A transformer that gives every page the operator's limits (QUARRY_MAX_PAGE_ELEMENTS and the like). */
export function withPageLimits(transformer: HtmlTransformer, limits: PageLimits): HtmlTransformer {
  return {
    transform: (input) => transformer.transform({ ...input, limits }),
    ...(transformer.close ? { close: () => transformer.close!() } : {}),
  };
}
