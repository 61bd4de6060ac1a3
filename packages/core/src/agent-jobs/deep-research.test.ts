import { describe, expect, it } from 'vitest';
import type { ScrapeDocument } from '../document.js';
import { MemoryJobStore } from '../memory/memory-job-store.js';
import { parseDeepResearchRequest } from '../options/deep-research-options.js';
import type { JobRecord } from '../ports/job-store.js';
import type { LlmProvider } from '../ports/llm-provider.js';
import type { SearchProvider } from '../ports/search-provider.js';
import type { StepContext } from './agent-program.js';
import { deepResearchProgram, type ResearchState } from './deep-research.js';

/**
 * The research loop's limits, with a model that always asks one more question, a search that
 * always finds two new pages, and a clock the test moves.
 */
function harness(body: Record<string, unknown>, options: { msPerSearch?: number } = {}) {
  let now = 1_700_000_000_000;
  let searches = 0;
  const jobs = new MemoryJobStore();
  const job: JobRecord = {
    id: 'research-1',
    kind: 'deep_research',
    teamId: 'team',
    status: 'scraping',
    url: 'q',
    request: { version: 'v1', options: parseDeepResearchRequest(body) },
    createdAt: now,
    expiresAt: now + 1e9,
    kickoffDone: true,
  };
  const llm: LlmProvider = {
    model: 'stub/model',
    contextTokens: 8_000,
    countTokens: (text) => Math.ceil(text.length / 4),
    generateText: async () => ({ text: 'Findings.', usage: { inputTokens: 10, outputTokens: 5 } }),
    generateObject: async () => ({ object: { questions: [`question ${searches}`] }, usage: { inputTokens: 10, outputTokens: 5 } }),
  };
  const search: SearchProvider = {
    name: 'stub',
    search: async () => {
      searches++;
      now += options.msPerSearch ?? 0;
      return [1, 2].map((index) => ({
        source: 'web' as const,
        url: `https://site.test/${searches}/${index}`,
        title: `Page ${searches}.${index}`,
        description: '',
        position: index,
      }));
    },
  };
  const page = (url: string): ScrapeDocument => ({
    markdown: `Text of ${url}`,
    metadata: { sourceURL: url, url, title: url, statusCode: 200, scrapeId: url, creditsUsed: 1, proxyUsed: 'basic', engine: 'http' },
  });
  const context: StepContext = {
    job,
    jobs,
    signal: new AbortController().signal,
    now: () => now,
    deadline: Number.POSITIVE_INFINITY,
    llm,
    search,
    scrape: async (url) => page(url),
    map: async () => [],
    usage: { tokens: 0 },
  };
  return {
    run: async (): Promise<ResearchState> => {
      await jobs.createJob(job);
      const result = await deepResearchProgram.step(context, deepResearchProgram.initial(job));
      expect(result.done).toBe(true);
      return result.state;
    },
  };
}

const depths = (state: ResearchState) =>
  state.activities.filter((activity) => activity.type === 'search' && activity.status === 'processing').map((activity) => activity.depth);

describe('deep research limits', () => {
  it('stops at maxDepth', async () => {
    const state = await harness({ query: 'q', maxDepth: 3, maxUrls: 100 }).run();
    expect(state.currentDepth).toBe(3);
    expect(depths(state)).toEqual([1, 2, 3]);
    expect(state.sources).toHaveLength(6);
    expect(state.activities.at(-3)?.message).toBe('The research reached its depth or page limit.');
    expect(state.finalAnalysis).toBe('Findings.');
  });

  it('stops at maxUrls, taking no more sources than it allows', async () => {
    const state = await harness({ query: 'q', maxDepth: 12, maxUrls: 3 }).run();
    expect(state.sources.map((source) => source.url)).toEqual(['https://site.test/1/1', 'https://site.test/1/2', 'https://site.test/2/1']);
    expect(state.currentDepth).toBe(2);
  });

  it('stops at the time limit and writes the analysis from what it found', async () => {
    const state = await harness({ query: 'q', maxDepth: 12, maxUrls: 1000, timeLimit: 30 }, { msPerSearch: 11_000 }).run();
    expect(state.currentDepth).toBe(3);
    expect(state.activities.find((activity) => activity.type === 'thought')?.message).toBe(
      'Time limit of 30 s reached: writing the analysis from what was found.',
    );
    expect(state.phase).toBe('done');
    expect(state.finalAnalysis).toBe('Findings.');
  });
});
