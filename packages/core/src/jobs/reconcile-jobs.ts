import { reconcileAgentJobs } from '../agent-jobs/agent-worker.js';
import type { AgentStates, Frontier, JobRecords } from '../ports/job-store.js';
import type { Queue } from '../ports/queue.js';
import { kickoffKey } from './job-request.js';
import { messageFor } from './page-worker.js';

/**
 * Makes the queue agree with the JobStore, the source of truth: every unfinished item of every
 * running job gets its message (again), and a crawl whose kickoff did not finish gets its kickoff
 * message. Enqueuing is idempotent by message id, and workers skip items that are already
 * finished, so running this at any time is safe. Run at start (a crash may fall between storing
 * an item and enqueuing it) and whenever the queue may have lost data (Redis restarted).
 * Agent jobs get the message of their next step. Returns how many messages were offered.
 */
export async function reconcileJobs(jobs: JobRecords & Frontier & AgentStates, queue: Queue): Promise<number> {
  let offered = 0;
  for (const kind of ['crawl', 'batch_scrape'] as const) {
    for (const job of await jobs.listActive(kind)) {
      if (kind === 'crawl' && !job.kickoffDone) {
        await queue.enqueue([{ id: `${job.id}:${kickoffKey}`, jobId: job.id, key: kickoffKey, url: job.url, discoveryDepth: 0, priority: 0 }]);
        offered++;
      }
      const pending = await jobs.pendingItems(job.id);
      for (let index = 0; index < pending.length; index += 500) {
        const chunk = pending.slice(index, index + 500);
        await queue.enqueue(chunk.map((entry) => messageFor(job.id, entry)));
        offered += chunk.length;
      }
    }
  }
  return offered + (await reconcileAgentJobs(jobs, queue));
}
