import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeOptionsSchemaV2 } from '@quarry/core';
import { startQuarry, type TestQuarry } from './support/quarry-server.js';

/** OpenAPI documents from the validation schemas, the docs page, health, readiness and metrics. */
let quarry: TestQuarry;

beforeAll(async () => {
  quarry = await startQuarry();
});

afterAll(async () => {
  await quarry?.close();
});

describe('docs and operations', () => {
  it('serves OpenAPI 3.1 for v1 and v2 built from the schemas that validate requests', async () => {
    const v2 = (await (await fetch(`${quarry.url}/v2/openapi.json`)).json()) as Record<string, any>;
    expect(v2.openapi).toBe('3.1.0');
    const scrape = v2.paths['/v2/scrape'].post.requestBody.content['application/json'].schema;
    expect(scrape.properties.onlyMainContent).toEqual(JSON.parse(JSON.stringify(scrapeOptionsSchemaV2.properties.onlyMainContent)));
    expect(scrape.properties.timeout.default).toBe(30_000);
    expect(scrape.required).toContain('url');
    const v1 = (await (await fetch(`${quarry.url}/v1/openapi.json`)).json()) as Record<string, any>;
    expect(v1.paths['/v1/crawl'].post.requestBody.content['application/json'].schema.properties.maxDepth.default).toBe(10);
    expect(v1.paths['/v1/scrape'].post.requestBody.content['application/json'].schema.properties.skipTlsVerification.default).toBe(false);
    expect(v2.paths['/v2/parse'].post.requestBody.content['multipart/form-data'].schema.required).toEqual(['file']);
    expect(v2.paths['/v2/parse'].post.responses['413']).toBeDefined();
    expect(v1.paths['/v1/parse']).toBeUndefined();
    expect(v2.paths['/v2/agent'].post.requestBody.content['application/json'].schema.required).toContain('prompt');
    expect(v2.paths['/v2/agent'].post.requestBody.content['application/json'].schema.properties.maxCredits.minimum).toBe(1);
    expect(Object.keys(v2.paths['/v2/agent/{id}'])).toEqual(['get', 'delete']);
    expect(v2.paths['/v2/agent'].get).toBeDefined();
  });

  it('serves a docs page listing every operation', async () => {
    const response = await fetch(`${quarry.url}/docs`);
    expect(response.headers.get('content-type')).toContain('text/html');
    const html = await response.text();
    expect(html).toContain('/v2/batch/scrape');
    expect(html).toContain('onlyMainContent');
    expect(html).toContain('/v2/parse');
    expect(html).toContain('QUARRY_PARSE_MAX_BYTES');
  });

  it('answers health, readiness and Prometheus metrics', async () => {
    expect(await (await fetch(`${quarry.url}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${quarry.url}/ready`)).json()).toEqual({ status: 'ready' });
    await fetch(`${quarry.url}/v2/team/credit-usage`);
    const metrics = await (await fetch(`${quarry.url}/metrics`)).text();
    expect(metrics).toContain('quarry_http_requests_total{method="GET",route="/v2/team/credit-usage",status="200"}');
    expect(metrics).toContain('quarry_queue_messages{state="waiting"}');
    expect(metrics).toContain('quarry_jobs_running{kind="crawl"}');
    await fetch(`${quarry.url}/v2/scrape`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
    });
    const after = await (await fetch(`${quarry.url}/metrics`)).text();
    expect(after).toMatch(/quarry_fetch_duration_seconds_count\{engine="http",outcome="error"\} [1-9]/);
  });
});
