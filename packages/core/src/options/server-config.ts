import { Type, type Static } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { ValidationError } from '../errors.js';
import { describeErrors } from './validate.js';

/**
 * Every environment variable Quarry reads, declared once: name, default and description. The http
 * package's compose.ts is the only reader of process.env and passes it through `parseServerConfig`;
 * the README's table is generated from this object (`renderEnvTable`) and checked by a test.
 */
export const serverConfigSchema = Type.Object(
  {
    PORT: Type.Integer({ minimum: 0, maximum: 65_535, default: 3002, description: 'Port the server listens on.' }),
    HOST: Type.String({
      default: '127.0.0.1',
      description: 'Address the server binds to. Use 0.0.0.0 to serve other machines (then API keys are required).',
    }),
    QUARRY_DATA_DIR: Type.String({
      default: './.quarry',
      description: 'Folder of the embedded default: the SQLite file, its queue, and blobs (screenshots, PDFs).',
    }),
    QUARRY_ALLOW_PRIVATE_HOSTS: Type.String({
      default: '',
      description:
        'Comma-separated hosts and CIDRs that scrapes and webhooks may reach although they are loopback or private (`*` allows all). Everything private is refused by default.',
    }),
    QUARRY_AUTH: Type.Union([Type.Literal('auto'), Type.Literal('required'), Type.Literal('off')], {
      default: 'auto',
      description: 'auto: keys are required once any key exists; required: always; off: never (needed to serve a public address without keys).',
    }),
    QUARRY_ROBOTS_USER_AGENT: Type.String({
      default: 'QuarryBot',
      description: 'Product token matched against robots.txt user-agent groups (FirecrawlAgent groups are honoured too).',
    }),
    QUARRY_TRANSFORM_THREADS: Type.Integer({
      minimum: 0,
      maximum: 64,
      default: 0,
      description: 'Worker threads that turn HTML into markdown. 0: one per CPU core but one (the main thread fetches and runs the frontier); 1: on the main thread; N: N workers.',
    }),
    QUARRY_MAX_BODY_BYTES: Type.Integer({
      minimum: 1024,
      default: 52_428_800,
      description: 'Largest response body a fetch accepts, in bytes; larger pages fail with a too-large error.',
    }),
    QUARRY_WORKER_CONCURRENCY: Type.Integer({
      minimum: 1,
      maximum: 1_000,
      default: 16,
      description: 'Pages a server (or `quarry worker`) process scrapes at once, across all jobs.',
    }),
    QUARRY_TEAM_CONCURRENCY: Type.Integer({
      minimum: 0,
      maximum: 1_000,
      default: 0,
      description: 'Most pages one team has in flight at once across its crawls and batches; 0 means only the worker limit applies.',
    }),
    QUARRY_RATE_LIMITS: Type.String({
      default: '',
      description:
        'Requests per minute per team and endpoint kind, e.g. `scrape=100,crawl=15`. Defaults: scrape 100, crawl 15, map 100, search 100, extract 100, crawlStatus 25000, extractStatus 25000.',
    }),
    QUARRY_DEFAULT_CREDITS: Type.Integer({
      minimum: 0,
      default: 1_000_000,
      description: 'Credits a new team starts with when `keys create` names a team that does not exist and gives no --credits.',
    }),
    QUARRY_WEBHOOK_ALLOW_HTTP: Type.Boolean({
      default: false,
      description: 'Allow plain http webhook URLs (https only by default). Private targets also need QUARRY_ALLOW_PRIVATE_HOSTS.',
    }),
    QUARRY_WEBHOOK_SECRET: Type.Optional(
      Type.String({ minLength: 8, description: 'Secret for webhook signatures (X-Quarry-Signature and X-Firecrawl-Signature: sha256=HMAC of the body). Unset: unsigned.' }),
    ),
    QUARRY_WEBHOOK_CA_FILE: Type.Optional(
      Type.String({ description: 'PEM file of extra certificate authorities trusted for webhook receivers (an internal CA).' }),
    ),
    QUARRY_CHROMIUM_PATH: Type.Optional(
      Type.String({ description: 'Path of the Chromium binary for the browser engine (default: found at the usual Debian locations).' }),
    ),
    LOG_LEVEL: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
      { default: 'info', description: 'Log level of the server (pino).' },
    ),
    DATABASE_URL: Type.Optional(
      Type.String({
        description:
          'PostgreSQL URL (`postgres://user:pass@host:5432/db`) of the distributed mode: jobs, pages, keys, credits, cache and webhooks. Set it with REDIS_URL; with neither, the embedded SQLite default is used.',
      }),
    ),
    REDIS_URL: Type.Optional(
      Type.String({ description: 'Redis URL (`redis://host:6379`) of the distributed mode: the BullMQ work queue and shared rate limits. Set it with DATABASE_URL.' }),
    ),
    QUARRY_ROLE: Type.Union([Type.Literal('all'), Type.Literal('api'), Type.Literal('worker')], {
      default: 'all',
      description: 'What `quarry serve` runs in the distributed mode: the HTTP API, the page workers, or both (`quarry worker` is a worker).',
    }),
    QUARRY_PG_SCHEMA: Type.String({
      default: 'quarry',
      pattern: '^[a-z_][a-z0-9_]{0,62}$',
      description: 'PostgreSQL schema of the Quarry tables (created and migrated at start).',
    }),
    QUARRY_PG_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 1_000, default: 10, description: 'Most PostgreSQL connections one process opens.' }),
    QUARRY_REDIS_PREFIX: Type.String({
      default: 'quarry',
      minLength: 1,
      description: 'Prefix of every Redis key; processes that share it share the queue. Use `{quarry}` on Redis Cluster.',
    }),
    QUARRY_LEASE_MS: Type.Integer({
      minimum: 1_000,
      default: 120_000,
      description: 'How long a worker holds a page before another worker may take it (a worker that died gives its pages back after this).',
    }),
    QUARRY_RECONCILE_INTERVAL_MS: Type.Integer({
      minimum: 100,
      default: 10_000,
      description:
        'Distributed mode: how often one process checks that every unfinished page in PostgreSQL has its message in Redis (re-enqueueing after a Redis data loss) and completes finished jobs.',
    }),
    QUARRY_SHUTDOWN_GRACE_MS: Type.Integer({
      minimum: 0,
      default: 30_000,
      description: 'On SIGTERM, how long a worker lets its pages in flight finish before exiting (the rest return to the queue after their lease).',
    }),
  },
  { additionalProperties: true },
);

export type ServerConfig = Static<typeof serverConfigSchema>;

let coercing: Ajv | undefined;

/** Reads the configuration from an environment-like record (strings), applying the defaults. */
export function parseServerConfig(env: Record<string, string | undefined>): ServerConfig {
  coercing ??= new Ajv({ useDefaults: true, coerceTypes: true, allErrors: true, strict: false, verbose: true });
  const names = Object.keys(serverConfigSchema.properties);
  const value: Record<string, unknown> = {};
  for (const name of names) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') value[name] = raw;
  }
  const check = coercing.compile(serverConfigSchema);
  if (!check(value)) {
    const issues = describeErrors(check.errors ?? []).map((issue) => ({
      ...issue,
      message: `environment variable ${issue.message.replace(/^`([^`]*)`/, '$1')}`,
    }));
    throw new ValidationError(issues);
  }
  return value as ServerConfig;
}

/** The README table of environment variables, generated from the schema. */
export function renderEnvTable(): string {
  const rows = Object.entries(serverConfigSchema.properties).map(([name, schema]) => {
    const entry = schema as { default?: unknown; description?: string };
    const fallback = entry.default === undefined ? '' : entry.default === '' ? '(empty)' : `\`${String(entry.default)}\``;
    return `| \`${name}\` | ${fallback} | ${entry.description ?? ''} |`;
  });
  return ['| Variable | Default | What it does |', '|---|---|---|', ...rows].join('\n');
}
