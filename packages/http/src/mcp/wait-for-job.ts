import { terminalJobStatuses } from '@quarry/core';
import type { Services } from '../server/services.js';

/** How long a tool that waits for its job (crawl, extract, research, llms.txt) waits by default: under MCP clients' usual 60 s request timeout. */
export const defaultToolWaitMs = 45_000;
const pollMs = 250;

/**
 * Waits until the job is finished, the deadline passes or the call is abandoned; the tool then
 * answers the job's status either way (the id lets the caller check again later).
 */
export async function waitForJob(services: Services, id: string, waitMs: number, signal: AbortSignal): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && !signal.aborted) {
    const job = await services.jobStore.getJob(id);
    if (!job || terminalJobStatuses.has(job.status)) return;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The wait asked for in seconds (firecrawl-mcp's `timeout`), bounded to ten minutes. */
export function waitMsFrom(seconds: unknown): number {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 600_000) : defaultToolWaitMs;
}
