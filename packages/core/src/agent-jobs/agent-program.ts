import type { MapLink } from '../crawl/map-site.js';
import type { ScrapeDocument } from '../document.js';
import type { MapOptionsInput } from '../options/map-options.js';
import type { ScrapeOptions } from '../options/scrape-options.js';
import type { Frontier, JobRecord, JobRecords, PageResults } from '../ports/job-store.js';
import type { LlmProvider } from '../ports/llm-provider.js';
import type { SearchProvider } from '../ports/search-provider.js';
import type { AgentJobKind } from '../ports/job-store.js';
import type { AgentUsage } from './agent-job.js';

/**
 * One kind of agent job as a program of steps. `step` does work until it is done or the step's
 * deadline has passed, and returns the next state; the worker saves it and runs the next step,
 * maybe in another process. A step must be safe to run again from the same state (its first run
 * may have died after scraping but before saving). A step that throws fails the job with the
 * error's message, and nothing is charged.
 */
export interface AgentProgram<State = unknown> {
  readonly kind: AgentJobKind;
  /** The state of a job that has run no step yet. */
  initial(job: JobRecord): State;
  step(context: StepContext, state: State): Promise<StepResult<State>>;
  /** The most the job may be charged, when its request sets one (the agent's maxCredits). */
  creditLimit?(job: JobRecord): number | undefined;
  /**
   * The `data` of the job's `completed` webhook event; undefined sends no event. Without this
   * method every completed job sends one, with no data.
   */
  completedData?(job: JobRecord, state: State): unknown[] | undefined;
}

export type StepResult<State> = { state: State; done: false } | { state: State; done: true };

/** What a step may use. Tokens of model calls made through it are added to `usage`. */
export interface StepContext {
  job: JobRecord;
  jobs: JobRecords & Frontier & PageResults;
  signal: AbortSignal;
  now(): number;
  /** Epoch ms after which the step should return its state (it always makes some progress). */
  deadline: number;
  /** The model, when one is configured (its tokens are counted). */
  llm: LlmProvider | undefined;
  /** Web search, when a provider exists. */
  search: SearchProvider | undefined;
  /** Scrapes one page (pages are charged when kept as the job's documents: see step-pages.ts). */
  scrape(url: string, options: ScrapeOptions): Promise<ScrapeDocument>;
  map(url: string, options: MapOptionsInput): Promise<MapLink[]>;
  usage: AgentUsage;
}

export const isPastDeadline = (context: StepContext) => context.now() >= context.deadline;
