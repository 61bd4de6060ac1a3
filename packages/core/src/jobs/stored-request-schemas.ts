import { Type, type TSchema } from '@sinclair/typebox';
import type { JobKind } from '../ports/job-store.js';

/**
 * The stored request of each job kind, as checked when a job is read back from a store: the
 * envelope (api version, options object, webhook) and the fields a worker or a view reads first.
 * The options inside were validated and defaulted when the job was created (options/*), so they
 * are not declared again here. Unknown fields pass: rows written by an older version still read.
 */
const open = { additionalProperties: true } as const;
const versions = (...values: string[]) => Type.Union(values.map((value) => Type.Literal(value)));
const stringList = Type.Array(Type.String());

export const requestSchemas: { readonly [K in JobKind]: TSchema } = {
  crawl: Type.Object(
    {
      version: versions('v1', 'v2'),
      options: Type.Object({ limit: Type.Integer({ minimum: 1 }), includePaths: Type.Optional(stringList), excludePaths: Type.Optional(stringList) }, open),
      webhook: Type.Optional(Type.Unknown()),
      prompt: Type.Optional(Type.Object({ text: Type.String(), generated: Type.Object({}, open) }, open)),
    },
    open,
  ),
  batch_scrape: Type.Object(
    {
      version: versions('v1', 'v2'),
      options: Type.Object({ formats: Type.Optional(Type.Array(Type.Unknown())) }, open),
      maxConcurrency: Type.Optional(Type.Integer({ minimum: 1 })),
      webhook: Type.Optional(Type.Unknown()),
    },
    open,
  ),
  scrape: Type.Object({}, open),
  extract: Type.Object(
    {
      version: versions('v1', 'v2'),
      options: Type.Object({ urls: stringList, limit: Type.Integer({ minimum: 0 }), scrapeOptions: Type.Object({}, open) }, open),
      webhook: Type.Optional(Type.Unknown()),
    },
    open,
  ),
  deep_research: Type.Object(
    {
      version: versions('v1'),
      options: Type.Object({ query: Type.String(), maxDepth: Type.Integer(), maxUrls: Type.Integer(), timeLimitMs: Type.Number() }, open),
    },
    open,
  ),
  llmstxt: Type.Object({ version: versions('v1'), options: Type.Object({ url: Type.String(), maxUrls: Type.Integer() }, open) }, open),
  agent: Type.Object(
    { version: versions('v2'), options: Type.Object({ prompt: Type.String(), urls: stringList, maxPages: Type.Integer({ minimum: 0 }) }, open) },
    open,
  ),
  monitor_check: Type.Object(
    {
      monitorId: Type.String(),
      trigger: versions('scheduled', 'manual'),
      runAt: Type.Number(),
      previousCheckId: Type.Optional(Type.String()),
      targets: Type.Array(Type.Object({ id: Type.String(), type: versions('scrape', 'crawl') }, open)),
      webhook: Type.Optional(Type.Object({ url: Type.String() }, open)),
    },
    open,
  ),
};
