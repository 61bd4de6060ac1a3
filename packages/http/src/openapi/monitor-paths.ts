import { createMonitorRequestSchema, updateMonitorRequestSchema } from '@quarry/core';
import type { PathHelpers } from './agent-paths.js';

/**
 * OpenAPI paths of monitors (v2 only), their requests from the schemas that validate them and
 * their answers in the shapes Firecrawl's SDK reads (`{success, data}`).
 */
const summary = {
  type: 'object',
  properties: Object.fromEntries(['totalPages', 'same', 'changed', 'new', 'removed', 'error'].map((name) => [name, { type: 'integer' }])),
};

const monitor = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { enum: ['active', 'paused', 'deleted'] },
    schedule: { type: 'object', properties: { cron: { type: 'string' }, text: { type: 'string' }, timezone: { type: 'string' } } },
    nextRunAt: { type: ['string', 'null'], format: 'date-time' },
    lastRunAt: { type: ['string', 'null'], format: 'date-time' },
    currentCheckId: { type: ['string', 'null'], description: 'The queued check of the next tick.' },
    targets: { type: 'array', items: { type: 'object' } },
    webhook: { type: ['object', 'null'] },
    retentionDays: { type: 'integer' },
    lastCheckSummary: { oneOf: [summary, { type: 'null' }] },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

const check = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    monitorId: { type: 'string' },
    status: { enum: ['queued', 'running', 'completed', 'failed'] },
    trigger: { enum: ['scheduled', 'manual'] },
    scheduledFor: { type: ['string', 'null'], format: 'date-time' },
    startedAt: { type: ['string', 'null'], format: 'date-time' },
    finishedAt: { type: ['string', 'null'], format: 'date-time' },
    actualCredits: { type: ['integer', 'null'] },
    billingStatus: { enum: ['not_applicable', 'confirmed'] },
    summary,
    error: { type: ['string', 'null'] },
  },
};

const page = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    targetId: { type: ['string', 'null'] },
    url: { type: 'string' },
    status: { enum: ['same', 'new', 'changed', 'removed', 'error'] },
    statusCode: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
    diff: { type: ['object', 'null'], properties: { text: { type: 'string' }, json: {} } },
  },
};

const data = (schema: object) => ({ type: 'object', properties: { success: { type: 'boolean' }, data: schema } });
const listParams = ['limit', 'offset'].map((name) => ({ name, in: 'query', schema: { type: 'integer', minimum: name === 'limit' ? 1 : 0 } }));
const checkParam = { name: 'checkId', in: 'path', required: true, schema: { type: 'string' } };

export function monitorPaths({ ok, body, idParam }: PathHelpers): Record<string, object> {
  return {
    '/v2/monitor': {
      post: {
        summary: 'Create a monitor: pages or a site checked on a schedule for changes',
        requestBody: body(createMonitorRequestSchema),
        responses: ok(data(monitor)),
      },
      get: { summary: "List the team's monitors", parameters: listParams, responses: ok(data({ type: 'array', items: monitor })) },
    },
    '/v2/monitor/{id}': {
      get: { summary: 'A monitor', parameters: idParam, responses: ok(data(monitor)) },
      patch: {
        summary: 'Change a monitor (name, status, schedule, targets, webhook)',
        parameters: idParam,
        requestBody: body(updateMonitorRequestSchema),
        responses: ok(data(monitor)),
      },
      delete: {
        summary: 'Delete a monitor and its queued tick',
        parameters: idParam,
        responses: ok({ type: 'object', properties: { success: { type: 'boolean' } } }),
      },
    },
    '/v2/monitor/{id}/run': { post: { summary: 'Run a check now', parameters: idParam, responses: ok(data(check)) } },
    '/v2/monitor/{id}/checks': {
      get: { summary: "A monitor's checks, newest first", parameters: [...idParam, ...listParams], responses: ok(data({ type: 'array', items: check })) },
    },
    '/v2/monitor/{id}/checks/{checkId}': {
      get: {
        summary: 'A check with its pages and diffs',
        parameters: [
          ...idParam,
          checkParam,
          { name: 'skip', in: 'query', schema: { type: 'integer', minimum: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'status', in: 'query', schema: page.properties.status },
        ],
        responses: ok(data({ ...check, properties: { ...check.properties, pages: { type: 'array', items: page }, next: { type: ['string', 'null'] } } })),
      },
    },
  };
}
