import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsSiteRoutes, startOpenAiDouble, startTestServer, waitFor, type LlmDouble, type TestServer } from '@quarry/core/testing';
import { shopRoutes } from '../support/shop-site.js';
import { areBackingServicesAvailable, dropIsolated, isolatedEnv } from './backing-services.js';
import { startApiProcess, startWorkerProcess, stopAll, type QuarryProcess } from './quarry-processes.js';

/**
 * Agent jobs in the distributed mode with separate processes: an API process that only starts
 * jobs and answers their status, and two workers (the built CLI) that run their steps, the model
 * configured on the workers.
 */
const available = await areBackingServicesAvailable();

describe.runIf(available)('agent jobs on API and worker processes', () => {
  const processes: QuarryProcess[] = [];
  let env: ReturnType<typeof isolatedEnv> & Record<string, string>;
  let site: TestServer;
  let shop: TestServer;
  let openai: LlmDouble;
  let api: QuarryProcess & { url: string };

  beforeAll(async () => {
    site = await startTestServer(docsSiteRoutes());
    shop = await startTestServer(shopRoutes());
    openai = await startOpenAiDouble();
    env = { ...isolatedEnv(), QUARRY_RECONCILE_INTERVAL_MS: '1000', OPENAI_BASE_URL: openai.url, MODEL_NAME: 'double-model' };
    api = (await startApiProcess(env)) as QuarryProcess & { url: string };
    processes.push(api, await startWorkerProcess(env, 2), await startWorkerProcess(env, 2));
  });

  afterAll(async () => {
    await stopAll(processes);
    await openai?.close();
    await shop?.close();
    await site?.close();
    if (env) await dropIsolated(env);
  });

  const post = (path: string, body: unknown) =>
    fetch(`${api.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((response) =>
      response.json(),
    );
  const finished = (path: string) =>
    waitFor(
      async () => {
        const body = await fetch(`${api.url}${path}`).then((response) => response.json());
        return body.status === 'processing' ? undefined : body;
      },
      { timeoutMs: 60_000 },
    );

  it('writes llms.txt and extracts data with the work done by the workers', async () => {
    const [llms, extract] = await Promise.all([
      post('/v1/llmstxt', { url: `${site.url}/`, maxUrls: 4 }),
      post('/v2/extract', {
        urls: [`${shop.url}/products/*`],
        schema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
      }),
    ]);
    const [llmsDone, extractDone] = await Promise.all([finished(`/v1/llmstxt/${llms.id}`), finished(`/v2/extract/${extract.id}`)]);
    expect(llmsDone.status).toBe('completed');
    expect(llmsDone.data.llmstxt).toMatch(/^# Docs Site\n/);
    expect(llmsDone.data.llmstxt.match(/^- \[/gm)).toHaveLength(4);
    expect(extractDone).toMatchObject({ status: 'completed', data: { name: 'Kettle', price: 39.5 } });
    expect(openai.requests.length).toBeGreaterThan(0);
  });
});
