import { QuarryError, type ErrorCode } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { statusOf, statusOfKind, toHttpError } from '../src/errors/to-http.js';
import { openApiDocument } from '../src/openapi/openapi-document.js';

/** The OpenAPI documents' error responses come from the error map: every status an error can answer is there. */
describe('OpenAPI error responses', () => {
  const answered = new Set([
    ...(Object.keys(statusOf) as ErrorCode[]).map((code) => toHttpError(new QuarryError(code, 'x')).status),
    ...Object.keys(statusOfKind).map((kind) => toHttpError(new QuarryError('target_failed', 'x', { details: { kind } })).status),
  ]);

  it('answers 403, 410, 413, 415, 422, 501 and 503 among the statuses the map emits', () => {
    expect([...answered].sort()).toEqual([400, 401, 402, 403, 404, 408, 410, 413, 415, 422, 429, 500, 501, 503]);
  });

  it('ignores a kind that only names an inherited member of the table', () => {
    expect(toHttpError(new QuarryError('target_failed', 'x', { details: { kind: 'constructor' } })).status).toBe(500);
  });

  it.each(['v1', 'v2'] as const)('documents every one of them on each %s operation', (version) => {
    const document = openApiDocument(version) as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>> };
    const scrape = document.paths[`/${version}/scrape`]!.post!.responses;
    expect(
      Object.keys(scrape)
        .filter((status) => status !== '200')
        .map(Number)
        .sort(),
    ).toEqual([...answered].sort());
    expect(scrape['415']!.description).toContain('content type');
    expect(scrape['501']!.description).toContain('not_configured');
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const status of answered) expect(operation.responses, `${method} ${path}`).toHaveProperty(String(status));
      }
    }
  });
});

describe('OpenAPI routes of Firecrawl e2e behaviours', () => {
  it.each(['v1', 'v2'] as const)('%s documents GET /scrape/{id}', (version) => {
    const document = openApiDocument(version) as { paths: Record<string, Record<string, unknown>> };
    expect(document.paths[`/${version}/scrape/{id}`]).toHaveProperty('get');
  });

  it('v2 documents POST /crawl/params-preview', () => {
    const document = openApiDocument('v2') as { paths: Record<string, Record<string, unknown>> };
    expect(document.paths['/v2/crawl/params-preview']).toHaveProperty('post');
    expect((openApiDocument('v1') as { paths: Record<string, unknown> }).paths).not.toHaveProperty('/v1/crawl/params-preview');
  });

  it('v2 documents POST and DELETE /scrape/{id}/interact from the schema that checks the body', () => {
    const document = openApiDocument('v2') as { paths: Record<string, Record<string, any>> };
    const interact = document.paths['/v2/scrape/{id}/interact']!;
    expect(interact).toHaveProperty('delete');
    const schema = interact.post.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['code', 'prompt', 'language', 'timeout']));
    expect(schema.properties.language.enum).toContain('javascript');
    expect(interact.post.responses['501']).toBeDefined();
    expect((openApiDocument('v1') as { paths: Record<string, unknown> }).paths).not.toHaveProperty('/v1/scrape/{id}/interact');
  });
});
