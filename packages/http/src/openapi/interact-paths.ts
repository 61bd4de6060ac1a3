import { interactRequestSchema } from '../routes/interact-routes.js';
import type { PathHelpers } from './agent-paths.js';

/** OpenAPI paths of interact (v2 only): the SDK's interact() and stopInteraction(). */
const executeResponse = {
  type: 'object',
  properties: {
    success: { type: 'boolean', description: 'false when the code threw or ran out of time' },
    result: { type: 'string', description: "The value returned (JSON unless a string); for a prompt, the actions' outputs" },
    output: { type: 'string' },
    stdout: { type: 'string', description: 'console.log/info/debug of the page while the code ran' },
    stderr: { type: 'string', description: 'console.warn/error, then the error thrown' },
    exitCode: { type: 'integer', description: '0 finished, 1 threw, 124 out of time' },
    killed: { type: 'boolean' },
    error: { type: 'string' },
    creditsUsed: { type: 'integer' },
  },
};

const stopResponse = {
  type: 'object',
  properties: { success: { type: 'boolean' }, status: { const: 'stopped' }, sessionDurationMs: { type: 'integer' }, creditsBilled: { type: 'integer' } },
};

export function interactPaths({ ok, body, idParam }: PathHelpers) {
  return {
    '/v2/scrape/{id}/interact': {
      post: {
        summary: 'Run JavaScript or a prompt on a browser page kept for an earlier scrape of your team',
        parameters: idParam,
        requestBody: body(interactRequestSchema),
        responses: ok(executeResponse),
      },
      delete: { summary: 'Close the browser page kept for a scrape', parameters: idParam, responses: ok(stopResponse) },
    },
  };
}
