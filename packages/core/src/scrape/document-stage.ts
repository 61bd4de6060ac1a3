import type { ScrapeDocument } from '../document.js';
import type { FormatType } from '../options/formats.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { ScrapeContext } from './scrape-context.js';

/**
 * A step that runs after a page is built and adds the formats that need more than the page itself:
 * `json` and `summary` (an LlmProvider), `changeTracking` (the document index). The engine is given
 * the stages its composition has; a format no stage provides is refused with a message naming what
 * is missing.
 *
 *   const stage: DocumentStage = {
 *     formats: ['summary'],
 *     needsMarkdown: true,
 *     run: async ({ document, markdown }) => { document.summary = await summarize(markdown); },
 *   };
 */
export interface DocumentStage {
  /** The formats this stage produces. */
  readonly formats: readonly FormatType[];
  /** Whether the stage reads the page's markdown (made even when the caller did not ask for it). */
  readonly needsMarkdown: boolean;
  run(input: DocumentStageInput): Promise<void>;
}

export interface DocumentStageInput {
  /** The document being built; the stage adds its fields (and may add `warning`). */
  document: ScrapeDocument;
  /** The page's markdown, whether or not `markdown` was asked for (undefined for stages that do not need it). */
  markdown: string | undefined;
  /** The page's HTML as received (decoded), for stages that read structured data; undefined for other content. */
  rawHtml?: string | undefined;
  options: ScrapeOptions;
  context: ScrapeContext;
}

/** The stages that apply to these options, in the order given. */
export function stagesFor(stages: readonly DocumentStage[], options: ScrapeOptions): DocumentStage[] {
  const asked = new Set(options.formats.map((format) => format.type));
  return stages.filter((stage) => stage.formats.some((format) => asked.has(format)));
}
