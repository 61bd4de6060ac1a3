/**
 * The worker-thread side of `WorkerPoolTransformer`: receives `{ id, input }`, runs core's pure
 * `transformHtml`, and answers `{ id, output }` or `{ id, error }`. A page that throws is answered
 * as an error and the worker goes on; only a crash (out of memory, a bug in this file) ends it.
 *
 * Built by tsup to `dist/transform-worker.js`; from source it is loaded through tsx (see
 * `workerScript` in worker-pool-transformer.ts).
 */
import { parentPort } from 'node:worker_threads';
// The slim entry: transformHtml without the rest of the engine (~25 MB less RSS per worker).
import { QuarryError, transformHtml } from '@quarry/core/transform';
import type { WorkerReply, WorkerRequest } from './worker-pool-transformer.js';

const port = parentPort;
if (!port) throw new Error('transform-worker runs as a worker thread of WorkerPoolTransformer, not on its own');

port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id: request.id, output: transformHtml(request.input) };
  } catch (error) {
    const plain = error instanceof Error ? error : new Error(String(error));
    const details = error instanceof QuarryError ? error.details : undefined;
    reply = {
      id: request.id,
      error: { name: plain.name, message: plain.message, ...(plain.stack ? { stack: plain.stack } : {}), ...(details ? { details } : {}) },
    };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies WorkerReply);
