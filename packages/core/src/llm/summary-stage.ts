import type { LlmProvider } from '../ports/llm-provider.js';
import type { DocumentStage } from '../scrape/document-stage.js';
import { addTokens } from './json-stage.js';
import { summaryPrompt } from './prompt.js';
import { fitToTokens } from './token-budget.js';

/**
 * The summary format as a DocumentStage: the page's markdown, trimmed to the model's budget, goes
 * to `generateText` and the answer lands under `summary`. Needs a provider (the engine refuses the
 * format up front when none is configured). A trimmed page adds a warning.
 */
export interface SummaryStageOptions {
  provider: LlmProvider;
  /** Tokens kept for the answer (default 512). */
  maxOutputTokens?: number;
}

export const summaryDefaults = { maxOutputTokens: 512 } as const;

export function createSummaryStage(options: SummaryStageOptions): DocumentStage {
  const { provider } = options;
  const maxOutputTokens = options.maxOutputTokens ?? summaryDefaults.maxOutputTokens;
  return {
    formats: ['summary'],
    needsMarkdown: true,
    run: async ({ document, markdown, context }) => {
      const overhead = provider.countTokens(summaryPrompt({ content: '', url: document.metadata.url }).system) + 64;
      const budget = Math.max(0, provider.contextTokens - maxOutputTokens - overhead);
      const content = fitToTokens(markdown ?? '', budget, (text) => provider.countTokens(text));
      const { text, usage } = await provider.generateText({
        ...summaryPrompt({ content: content.text, url: document.metadata.url }),
        maxOutputTokens,
        ...(context.signal ? { signal: context.signal } : {}),
      });
      document.summary = text.trim();
      addTokens(document, usage);
      if (content.truncated) {
        document.warning = [document.warning, `The page is longer than ${provider.model} can read at once: the summary covers its first ${budget} tokens.`]
          .filter(Boolean)
          .join(' ');
      }
    },
  };
}
