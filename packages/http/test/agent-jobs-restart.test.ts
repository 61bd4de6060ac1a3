import { describe, expect, it } from 'vitest';
import { docsSiteRoutes, startTestServer, waitFor } from '@quarry/core/testing';
import { startQuarry } from './support/quarry-server.js';

/**
 * Agent jobs run in steps, each saved with its number in the job store and followed by a queue
 * message for the next: a server that stops between steps leaves a job the next server finishes.
 */
describe('restarts', () => {
  it('survives a restart between steps: the next server finishes the job from its saved state', async () => {
    const routes = docsSiteRoutes();
    // The map reads each page once, quickly; the job's scrapes (second reads) are slow.
    const reads = new Map<string, number>();
    const slow = await startTestServer(async (request, response, url) => {
      const read = (reads.get(url.pathname) ?? 0) + 1;
      reads.set(url.pathname, read);
      if (read > 1) await new Promise((resolve) => setTimeout(resolve, 300));
      const route = routes[url.pathname];
      if (!route || typeof route === 'function') {
        if (typeof route === 'function') return route(request, response, url);
        response.writeHead(404).end();
        return;
      }
      response.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers });
      response.end(route.body);
    });
    // A short lease makes short steps (a quarter of it), so the job takes several.
    const env = { QUARRY_LEASE_MS: '2000' };
    const first = await startQuarry(env);
    try {
      const started = await fetch(`${first.url}/v1/llmstxt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `${slow.url}/`, maxUrls: 8 }),
      }).then((response) => response.json());
      await waitFor(async () => ((await first.services.jobStore.getJobState(started.id))?.step ?? 0) >= 1);
      const dataDir = first.dataDir;
      await first.services.runner.stop();
      const second = await startQuarry(env, dataDir);
      try {
        const body = await waitFor(async () => {
          const status = await fetch(`${second.url}/v1/llmstxt/${started.id}`).then((response) => response.json());
          return status.status === 'processing' ? undefined : status;
        });
        expect(body.status).toBe('completed');
        expect(body.data.llmstxt.match(/^- \[/gm)).toHaveLength(8);
        expect((await second.services.jobStore.getJobState(started.id))!.step).toBeGreaterThan(1);
      } finally {
        await second.close();
      }
    } finally {
      await first.close();
      await slow.close();
    }
  });
});
