import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { terminalJobStatuses, type JobKind, type JobRecord, type ScrapeDocument } from '@quarry/core';
import type { ApiVersion } from '../server/request-context.js';
import type { Services } from '../server/services.js';
import { ownJob } from './job-views.js';
import { presentDocument } from './present-document.js';

/**
 * Live watching of a crawl or batch over a WebSocket, as Firecrawl's watchers expect: `catchup`
 * (status and the documents so far), a `document` message per finished page, then `done` or
 * `error`, the same message also given as the close reason (the v1 SDK reads it there).
 *
 * Pages are read from the job store with a short interval rather than pushed by the workers: the
 * store is the one place every mode (embedded or API + worker processes) writes finished pages
 * to, in completion order, so a cursor over it never misses or repeats a page, survives a worker
 * crash or an API restart, and needs no second channel that could drop messages.
 */
export const watchPollMs = 250;
const pageSize = 100;

/** The route's pre-upgrade check: another team's id, or an unknown one, is refused with a 404 before the handshake. */
export async function checkWatchable(services: Services, request: FastifyRequest, kinds: JobKind[]): Promise<void> {
  if (request.ws) await ownJob(services, request, kinds);
}

export function watchJob(services: Services, socket: WebSocket, request: FastifyRequest, version: ApiVersion, kinds: JobKind[]): void {
  void runWatch(services, socket, request, version, kinds).catch((error: unknown) => {
    request.log.warn({ err: error }, 'crawl watch failed');
    finish(socket, { type: 'error', error: 'Internal error while watching the job' });
  });
}

async function runWatch(services: Services, socket: WebSocket, request: FastifyRequest, version: ApiVersion, kinds: JobKind[]) {
  const store = services.jobStore;
  let job = await ownJob(services, request, kinds);
  let cursor = 0;
  const readNew = async (): Promise<ScrapeDocument[]> => {
    const documents: ScrapeDocument[] = [];
    for (;;) {
      const batch = await store.listDocuments(job.id, cursor, pageSize);
      cursor += batch.length;
      documents.push(...batch.map((document) => presentDocument(document, version)));
      if (batch.length < pageSize) return documents;
    }
  };
  const catchup = await readNew();
  send(socket, { type: 'catchup', data: { ...(await summary(services, job)), data: catchup } });
  while (socket.readyState === socket.OPEN) {
    const wasTerminal = terminalJobStatuses.has(job.status);
    for (const document of await readNew()) send(socket, { type: 'document', data: document });
    // A terminal status read before the last page read: no page can have been written since.
    if (wasTerminal) {
      const end = await summary(services, job);
      finish(socket, job.status === 'completed' ? { type: 'done', data: end } : { type: 'error', error: job.error ?? `Job ${job.status}`, data: end });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, watchPollMs));
    job = (await store.getJob(job.id)) ?? job;
  }
}

async function summary(services: Services, job: JobRecord) {
  const progress = await services.jobStore.progress(job.id);
  return {
    success: true,
    status: job.status,
    completed: progress.completed,
    total: job.status === 'scraping' ? progress.total : Math.max(progress.completed, progress.total - progress.pending),
    creditsUsed: progress.creditsUsed,
    expiresAt: new Date(job.expiresAt).toISOString(),
  };
}

function send(socket: WebSocket, message: object) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/** Sends the last message and closes with it as the reason (at most 123 bytes, as the protocol allows). */
function finish(socket: WebSocket, message: { type: 'done' | 'error'; error?: string; data?: object }) {
  send(socket, message);
  const reason = JSON.stringify(message.type === 'done' ? { type: 'done' } : { type: 'error', error: (message.error ?? '').slice(0, 80) });
  if (socket.readyState === socket.OPEN) socket.close(1000, Buffer.byteLength(reason) <= 123 ? reason : JSON.stringify({ type: message.type }));
}
