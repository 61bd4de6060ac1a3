import { QuarryError } from '../errors.js';
import type { LlmUsage } from '../ports/llm-provider.js';

/**
 * The model answered, but not with JSON (or with no tool call where one was forced). Thrown by
 * `LlmProvider.generateObject`; carries the raw answer and the tokens it cost, so the caller can
 * ask for one repair and still charge what was used.
 */
export class ModelOutputError extends QuarryError {
  readonly text: string;
  readonly usage: LlmUsage;
  constructor(message: string, text: string, usage: LlmUsage, cause?: unknown) {
    super('internal', message, { cause, details: { reason: 'invalid-model-output' } });
    this.text = text;
    this.usage = usage;
  }
}

/** Usage of several calls added up. */
export function addUsage(...usages: LlmUsage[]): LlmUsage {
  return usages.reduce((sum, usage) => ({ inputTokens: sum.inputTokens + usage.inputTokens, outputTokens: sum.outputTokens + usage.outputTokens }), {
    inputTokens: 0,
    outputTokens: 0,
  });
}

export const noUsage: LlmUsage = { inputTokens: 0, outputTokens: 0 };

/** The tokens a usage counts for billing (input + output). */
export const tokensOf = (usage: LlmUsage): number => usage.inputTokens + usage.outputTokens;
