import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Ajv, ValidateFunction } from 'ajv';
import { ValidationError } from '../errors.js';
import { describeErrors } from './validate.js';
import { loadAjv, precompiled, serverConfigOptions } from './validators.js';

/**
 * Every environment variable Quarry reads, declared once: name, default and description. The http
 * package's compose.ts is the only reader of process.env and passes it through `parseServerConfig`;
 * the README's table is generated from this object (`renderEnvTable`) and checked by a test.
 */
/** A comma-separated list of http(s) proxy URLs. */
const proxyListPattern = '^\\s*https?://[^\\s,]+(\\s*,\\s*https?://[^\\s,]+)*\\s*$';

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
    QUARRY_ADMIN_TOKEN: Type.Optional(
      Type.String({
        minLength: 16,
        description:
          'Operator secret that signs in to the admin view of the dashboard (`/dashboard`). Unset: one is generated at first start, stored hashed and printed once in the startup log.',
      }),
    ),
    QUARRY_ROBOTS_USER_AGENT: Type.String({
      default: 'QuarryBot',
      description: 'Product token matched against robots.txt user-agent groups (FirecrawlAgent groups are honoured too).',
    }),
    QUARRY_TRANSFORM_THREADS: Type.Integer({
      minimum: 0,
      maximum: 64,
      default: 0,
      description:
        'Worker threads that turn HTML into markdown. 0: one per CPU core but one, at least one (the main thread fetches and runs the frontier); 1: on the main thread (no deadline or heap bound: for trusted pages only); N: N workers.',
    }),
    QUARRY_TRANSFORM_DEADLINE_MS: Type.Integer({
      minimum: 100,
      maximum: 600_000,
      default: 20_000,
      description: 'Longest one page may take to turn into markdown on a worker thread; past it the page fails as too large and the worker is replaced.',
    }),
    QUARRY_TRANSFORM_HEAP_MB: Type.Integer({
      minimum: 16,
      maximum: 16_384,
      default: 128,
      description:
        'Heap (old generation, MB) of each transform worker thread. A page too long for it (~40 bytes per character of HTML) converts alone on a worker with up to 4x this heap; a page that needs more fails as too large.',
    }),
    QUARRY_MAX_BODY_BYTES: Type.Integer({
      minimum: 1024,
      default: 52_428_800,
      description: 'Largest response body a fetch accepts, in bytes; larger pages fail with a too-large error.',
    }),
    QUARRY_PARSE_MAX_BYTES: Type.Integer({
      minimum: 1024,
      default: 52_428_800,
      description: 'Largest file POST /v2/parse and `quarry parse` accept, in bytes; larger uploads answer 413.',
    }),
    QUARRY_MAX_PAGE_ELEMENTS: Type.Integer({
      minimum: 1,
      default: 500_000,
      description:
        'Most elements (start tags) of one page converted; a page with more is cut before the next start tag, before it is parsed, and its first part converted, with a warning on the document.',
    }),
    QUARRY_MAX_TABLE_CELLS: Type.Integer({
      minimum: 1,
      default: 200_000,
      description:
        'Most table cells (td, th) of one page converted; a page with more is cut before the next cell, before it is parsed, and its first part converted, with a warning on the document.',
    }),
    QUARRY_MAX_MARKDOWN_CHARS: Type.Integer({
      minimum: 1,
      default: 20_000_000,
      description:
        'Longest markdown one page may give, in characters; a page with more text is cut before it is parsed, and a longer markdown is cut at this length, each with a warning on the document.',
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
    QUARRY_SHARED_INDEX: Type.Boolean({
      default: false,
      description:
        'Share stored pages across teams: the search index, the maxAge cache and change-tracking histories. Off: each team sees only the pages it stored (another team may have crawled an intranet page).',
    }),
    QUARRY_WEBHOOK_ALLOW_HTTP: Type.Boolean({
      default: false,
      description: 'Allow plain http webhook URLs (https only by default). Private targets also need QUARRY_ALLOW_PRIVATE_HOSTS.',
    }),
    QUARRY_MONITOR_MIN_INTERVAL_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 86_400,
      default: 300,
      description: 'Shortest interval between two checks of a monitor (`/v2/monitor`): schedules whose ticks come closer are refused with a 400.',
    }),
    QUARRY_WEBHOOK_SECRET: Type.Optional(
      Type.String({
        minLength: 8,
        description: 'Secret for webhook signatures (X-Quarry-Signature and X-Firecrawl-Signature: sha256=HMAC of the body). Unset: unsigned.',
      }),
    ),
    QUARRY_WEBHOOK_CA_FILE: Type.Optional(
      Type.String({ description: 'PEM file of extra certificate authorities trusted for webhook receivers (an internal CA).' }),
    ),
    QUARRY_CHROMIUM_PATH: Type.Optional(
      Type.String({ description: 'Path of the Chromium binary for the browser engine (default: found at the usual Debian locations).' }),
    ),
    QUARRY_BROWSER_MAX_PAGES: Type.Integer({
      minimum: 1,
      maximum: 64,
      default: 4,
      description: 'Browser scrapes at once in this process (each in its own context); more wait their turn.',
    }),
    QUARRY_BROWSER_MAX_BROWSERS: Type.Integer({ minimum: 1, maximum: 16, default: 1, description: 'Chromium processes at once in this process.' }),
    QUARRY_BROWSER_RETIRE_AFTER: Type.Integer({
      minimum: 1,
      default: 100,
      description: 'Scrapes a Chromium process serves before it is replaced (bounds its memory growth).',
    }),
    QUARRY_INTERACT_TTL_SECONDS: Type.Integer({
      minimum: 1,
      maximum: 3600,
      default: 300,
      description: 'Seconds an interact browser session (POST /v2/scrape/{id}/interact) stays open after its last use.',
    }),
    QUARRY_INTERACT_MAX_SESSIONS: Type.Integer({
      minimum: 1,
      maximum: 64,
      default: 2,
      description:
        'Interact browser sessions a team may hold at once (across all processes in the distributed mode); opening one more closes its least recently used.',
    }),
    QUARRY_INTERACT_NODE: Type.Boolean({
      default: false,
      description:
        'Run interact\'s `language: "node"` code (given a `page` object) in a locked-down child process (no fs, network, process or require; CPU and memory bounded). Off: it answers 501.',
    }),
    QUARRY_PUBLIC_URL: Type.Optional(
      Type.String({
        pattern: '^https?://[^\\s]+$',
        description:
          'Base URL clients reach this server at (behind a proxy or on another host), used in screenshot and PDF links. Default: the address it listens on.',
      }),
    ),
    QUARRY_PROXY_BASIC: Type.Optional(
      Type.String({
        pattern: proxyListPattern,
        description:
          'Comma-separated proxy URLs (`http://user:pass@host:port`) for `proxy: basic` and the first try of `auto`, used in turn. Default: direct connections (or PROXY_SERVER).',
      }),
    ),
    QUARRY_PROXY_ENHANCED: Type.Optional(
      Type.String({
        pattern: proxyListPattern,
        description:
          'Comma-separated proxy URLs for `proxy: enhanced` (v1 `stealth`) and the retry of `auto` after 401/403/429 or a bot-protection page (+4 credits). Without it, enhanced answers 501 and auto stays basic.',
      }),
    ),
    PROXY_SERVER: Type.Optional(
      Type.String({ description: "Firecrawl's single proxy (`host:port` or a URL): the basic pool when QUARRY_PROXY_BASIC is not set." }),
    ),
    PROXY_USERNAME: Type.Optional(Type.String({ description: 'User name for PROXY_SERVER.' })),
    PROXY_PASSWORD: Type.Optional(Type.String({ description: 'Password for PROXY_SERVER.' })),
    FIRECRAWL_API_KEY: Type.Optional(
      Type.String({
        description:
          '`quarry mcp` only: the API key whose team the MCP tools run as (or `--api-key`). Unset: keyless, where the server would accept keyless requests.',
      }),
    ),
    LOG_LEVEL: Type.Union(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
      { default: 'info', description: 'Log level of the server (pino).' },
    ),
    QUARRY_LOG_FORMAT: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], {
      default: 'auto',
      description:
        'Log lines: `pretty` (time, level, message; URLs and the admin token in bold), `json` (one JSON object a line, for collectors), or `auto`: pretty on a terminal, JSON otherwise.',
    }),
    DATABASE_URL: Type.Optional(
      Type.String({
        description:
          'PostgreSQL URL (`postgres://user:pass@host:5432/db`) of the distributed mode: jobs, pages, keys, credits, cache and webhooks. Set it with REDIS_URL; with neither, the embedded SQLite default is used.',
      }),
    ),
    REDIS_URL: Type.Optional(
      Type.String({
        description: 'Redis URL (`redis://host:6379`) of the distributed mode: the BullMQ work queue and shared rate limits. Set it with DATABASE_URL.',
      }),
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
    QUARRY_BLOB_STORE: Type.Union([Type.Literal('auto'), Type.Literal('local'), Type.Literal('postgres'), Type.Literal('s3')], {
      default: 'auto',
      description:
        'Where screenshots and action PDFs are kept and served from: local (a folder in QUARRY_DATA_DIR, one machine), postgres (a table every distributed process shares), s3 (an S3-compatible bucket: QUARRY_S3_*); auto: s3 when QUARRY_S3_BUCKET is set, else postgres in the distributed mode, else local.',
    }),
    QUARRY_S3_ENDPOINT: Type.Optional(
      Type.String({
        description:
          'Base URL of the S3-compatible service (e.g. `https://s3.eu-west-1.amazonaws.com`, `http://minio:9000`); buckets are addressed path-style.',
      }),
    ),
    QUARRY_S3_BUCKET: Type.Optional(Type.String({ description: 'Bucket of the s3 blob store; setting it selects that store (QUARRY_BLOB_STORE=auto).' })),
    QUARRY_S3_REGION: Type.String({ default: 'us-east-1', description: 'Signing region of the s3 blob store.' }),
    QUARRY_S3_ACCESS_KEY_ID: Type.Optional(Type.String({ description: 'Access key id of the s3 blob store.' })),
    QUARRY_S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ description: 'Secret access key of the s3 blob store.' })),
    QUARRY_S3_PREFIX: Type.String({ default: '', description: 'Key prefix of blobs in the bucket (e.g. `quarry/`).' }),
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
    QUARRY_SEARCH_PROVIDER: Type.Union([Type.Literal('auto'), Type.Literal('index'), Type.Literal('searxng'), Type.Literal('serper')], {
      default: 'auto',
      description:
        'What answers /search: index (full-text search over the pages this instance stored, no outside service), searxng (SEARXNG_ENDPOINT), serper (SERPER_API_KEY); auto: serper when its key is set, else searxng when its endpoint is set, else index.',
    }),
    SEARXNG_ENDPOINT: Type.Optional(
      Type.String({ description: 'Base URL of a SearXNG instance whose JSON API answers /search (its settings.yml must allow the json format).' }),
    ),
    SEARXNG_ENGINES: Type.Optional(Type.String({ description: 'Comma-separated SearXNG engines to use (e.g. `google,bing`); unset: the instance default.' })),
    SEARXNG_CATEGORIES: Type.Optional(Type.String({ description: 'Comma-separated SearXNG categories of web results; unset: `general`.' })),
    SERPER_API_KEY: Type.Optional(Type.String({ description: 'API key of the Serper Google Search API (serper.dev) for /search.' })),
    SERPER_ENDPOINT: Type.String({
      default: 'https://google.serper.dev',
      description: 'Base URL of the Serper API (change it only for a proxy or a test double).',
    }),
    QUARRY_LLM_PROVIDER: Type.Union([Type.Literal('auto'), Type.Literal('openai'), Type.Literal('ollama'), Type.Literal('anthropic'), Type.Literal('none')], {
      default: 'auto',
      description:
        'Which model answers the json and summary formats (and extract, deep research, llms.txt): openai (any OpenAI-compatible server: OPENAI_BASE_URL / OPENAI_API_KEY), ollama (OLLAMA_BASE_URL), anthropic (ANTHROPIC_API_KEY), none; auto: the first of those that is configured. With none, json is filled from structured data where the page has it.',
    }),
    OPENAI_BASE_URL: Type.Optional(
      Type.String({
        description:
          'Base URL of an OpenAI-compatible API, with its `/v1` (OpenAI, vLLM, llama.cpp, LM Studio...). Unset with OPENAI_API_KEY set: `https://api.openai.com/v1`.',
      }),
    ),
    OPENAI_API_KEY: Type.Optional(Type.String({ description: 'API key of the OpenAI-compatible server (sent as a bearer token).' })),
    MODEL_NAME: Type.Optional(
      Type.String({
        description: 'Model of the LLM features. Unset: `gpt-4o-mini` for OpenAI, `claude-sonnet-4-5` for Anthropic; needed for Ollama and other servers.',
      }),
    ),
    OLLAMA_BASE_URL: Type.Optional(
      Type.String({
        description: 'Root URL of an Ollama server (e.g. `http://127.0.0.1:11434`); Quarry talks to its OpenAI-compatible API under `/v1`. Set MODEL_NAME too.',
      }),
    ),
    ANTHROPIC_API_KEY: Type.Optional(Type.String({ description: 'API key of Anthropic for the LLM features.' })),
    ANTHROPIC_BASE_URL: Type.Optional(
      Type.String({ description: "Base URL of the Anthropic API, with its `/v1` (a proxy or a test double); unset: Anthropic's own." }),
    ),
    QUARRY_LLM_CONTEXT_TOKENS: Type.Optional(
      Type.Integer({
        minimum: 1_024,
        description:
          "The model's context in tokens; longer pages are cut into parts. Unset: 128000 for OpenAI-compatible servers, 200000 for Anthropic, 4096 for Ollama (set it to the model's num_ctx).",
      }),
    ),
    QUARRY_LLM_TIMEOUT_MS: Type.Integer({ minimum: 1_000, default: 60_000, description: 'Most time one model call may take, retries included.' }),
    QUARRY_LLM_MAX_RETRIES: Type.Integer({
      minimum: 0,
      maximum: 10,
      default: 2,
      description: 'Retries of a model call answered with 429, a 5xx or no connection, with exponential backoff (Retry-After honoured).',
    }),
    QUARRY_LLM_STRUCTURED_OUTPUT: Type.Union([Type.Literal('json_schema'), Type.Literal('tool')], {
      default: 'json_schema',
      description:
        'How an OpenAI-compatible server is asked for JSON: `response_format: json_schema`, or one forced tool call (for servers without JSON-schema output).',
    }),
  },
  { additionalProperties: true },
);

export type ServerConfig = Static<typeof serverConfigSchema>;

let coercing: Ajv | undefined;
/** Validators of the variables set, by their names joined (a process sees one or two sets). */
const checks = new Map<string, ValidateFunction>();

/**
 * Reads the configuration from an environment-like record (strings), applying the defaults.
 * Only the variables set are validated (coerced, checked against their own schema); the others
 * take their schema's default. Compiling the whole schema cost ~100 ms of CPU at every start of
 * the CLI, which sets a few variables at most.
 */
export function parseServerConfig(env: Record<string, string | undefined>): ServerConfig {
  const properties: Record<string, TSchema> = serverConfigSchema.properties;
  const names = Object.keys(properties);
  const value: Record<string, unknown> = {};
  const set: string[] = [];
  for (const name of names) {
    const raw = env[name];
    const fallback = (properties[name] as { default?: unknown }).default;
    if (raw !== undefined && raw !== '') {
      value[name] = raw;
      set.push(name);
    } else if (fallback !== undefined) value[name] = structuredClone(fallback);
  }
  const key = set.join(',');
  // The whole schema's validator generated at build time (precompiled.ts) reads the same; without
  // it, only the variables set are compiled.
  let check = precompiled(serverConfigSchema) ?? checks.get(key);
  if (!check) {
    // The schema is ours (no need to check it against the meta-schema: ~30 ms more at start).
    coercing ??= new (loadAjv())(serverConfigOptions);
    check = coercing.compile(Type.Object(Object.fromEntries(set.map((name) => [name, properties[name]!])), { additionalProperties: true }));
    checks.set(key, check);
  }
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
