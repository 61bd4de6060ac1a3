import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { findChromium } from '@quarry/adapters';
import { createSqliteStorage, openSqlite } from '@quarry/storage';
import type { ServerConfig } from '@quarry/core';
import { buildLlmProvider, llmProviderKind } from '../compose-llm.js';
import { maskProxy, proxyPoolsOf } from '../compose-proxies.js';
import { describeSearchProvider, searchChoice } from '../compose-search.js';
import { describeAuth, describeRateLimits, keylessRefusal } from '../server/setup-words.js';

/**
 * The checks of `quarry doctor`. Each answers one line: ok, missing (an optional part is not set
 * up; the fix says how) or failing (something configured does not work; the fix says what to do).
 * They only read: the data folder is never created, a database is opened only when it exists.
 */
export type CheckStatus = 'ok' | 'missing' | 'failing';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
}

const ok = (name: string, detail: string): CheckResult => ({ name, status: 'ok', detail });
const missing = (name: string, detail: string, fix: string): CheckResult => ({ name, status: 'missing', detail, fix });
const failing = (name: string, detail: string, fix: string): CheckResult => ({ name, status: 'failing', detail, fix });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
const run = promisify(execFile);

/** Whether API keys exist, when the ledger can be read without creating anything. */
export type KeysKnown = boolean | undefined;

export function checkNode(version = process.versions.node): CheckResult {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const supported = major > 20 || (major === 20 && minor >= 19);
  return supported
    ? ok('Node.js', `${version} (supported: 20.19 or later, 22)`)
    : failing('Node.js', `${version} is too old`, 'install Node.js 22 (or 20.19 or later)');
}

export async function checkDataFolder(config: ServerConfig): Promise<CheckResult> {
  const folder = resolve(config.QUARRY_DATA_DIR);
  if (!existsSync(folder))
    return missing('Data folder', `${folder} does not exist yet`, '`npx quarry serve` creates it (set QUARRY_DATA_DIR to use another folder)');
  return ok('Data folder', `${folder} (${formatBytes(await folderBytes(folder))})`);
}

async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The embedded database: SQLite's version, and whether keys exist (read only when quarry.db exists). */
export async function checkSqlite(config: ServerConfig): Promise<{ result: CheckResult; hasKeys: KeysKnown }> {
  const file = join(resolve(config.QUARRY_DATA_DIR), 'quarry.db');
  try {
    const memory = openSqlite(':memory:');
    const version = (memory.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    memory.close();
    if (!existsSync(file)) return { result: ok('Storage', `SQLite ${version}; ${file} is created on first serve`), hasKeys: false };
    const storage = createSqliteStorage({ dataDir: config.QUARRY_DATA_DIR });
    try {
      return { result: ok('Storage', `SQLite ${version}, ${file}`), hasKeys: await storage.ledger.hasAnyKey() };
    } finally {
      storage.close();
    }
  } catch (error) {
    return {
      result: failing(
        'Storage',
        `SQLite at ${file}: ${messageOf(error)}`,
        'check that the data folder is writable and not on a network share, or set QUARRY_DATA_DIR',
      ),
      hasKeys: undefined,
    };
  }
}

/** PostgreSQL's version, and whether keys exist (undefined before the schema exists). */
export async function checkPostgres(config: ServerConfig): Promise<{ result: CheckResult; hasKeys: KeysKnown }> {
  const { defaultPostgresOptions, PostgresDatabase } = await import('@quarry/storage/distributed');
  const db = new PostgresDatabase({
    ...defaultPostgresOptions,
    connectionString: config.DATABASE_URL!,
    schema: config.QUARRY_PG_SCHEMA,
    maxConnections: 1,
    applicationName: 'quarry-doctor',
  });
  try {
    const [row] = await db.query<{ version: string }>('SHOW server_version');
    const keys = await db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM api_keys) AS found').catch(() => undefined);
    const result = ok('PostgreSQL', `${row?.version ?? 'unknown version'} at ${redact(config.DATABASE_URL!)} (schema ${config.QUARRY_PG_SCHEMA})`);
    return { result, hasKeys: keys?.[0]?.found };
  } catch (error) {
    return {
      result: failing(
        'PostgreSQL',
        `${redact(config.DATABASE_URL!)}: ${messageOf(error)}`,
        'start PostgreSQL or correct DATABASE_URL (postgres://user:password@host:5432/db)',
      ),
      hasKeys: undefined,
    };
  } finally {
    await db.close().catch(() => undefined);
  }
}

export async function checkRedis(config: ServerConfig): Promise<CheckResult> {
  const { createRedis } = await import('@quarry/storage/distributed');
  const redis = createRedis(config.REDIS_URL!, { name: 'quarry-doctor', commandTimeoutMs: 5_000 });
  try {
    const info = await redis.info('server');
    const version = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown version';
    return ok('Redis', `${version} at ${redact(config.REDIS_URL!)}`);
  } catch (error) {
    return failing('Redis', `${redact(config.REDIS_URL!)}: ${messageOf(error)}`, 'start Redis or correct REDIS_URL (redis://host:6379)');
  } finally {
    redis.disconnect();
  }
}

export async function checkChromium(config: ServerConfig): Promise<CheckResult> {
  let path: string | undefined;
  try {
    path = findChromium(config.QUARRY_CHROMIUM_PATH);
  } catch (error) {
    return failing('Browser', messageOf(error), 'point QUARRY_CHROMIUM_PATH at a Chromium executable, or unset it to use the installed one');
  }
  if (!path) {
    return missing(
      'Browser',
      'no Chromium found: waitFor, actions, screenshot, mobile, location and branding answer an error',
      'install it (apt-get install chromium) or set QUARRY_CHROMIUM_PATH',
    );
  }
  try {
    const { stdout } = await run(path, ['--version'], { timeout: 15_000 });
    return ok('Browser', `${stdout.trim()} at ${path}`);
  } catch (error) {
    return failing('Browser', `${path} does not run: ${messageOf(error)}`, 'reinstall Chromium or set QUARRY_CHROMIUM_PATH to one that runs');
  }
}

/** The LLM provider, with one tiny call (no retries) when one is configured. */
export async function checkLlm(config: ServerConfig): Promise<CheckResult> {
  const fix = 'set OPENAI_API_KEY, OPENAI_BASE_URL + MODEL_NAME, OLLAMA_BASE_URL + MODEL_NAME or ANTHROPIC_API_KEY';
  if (!llmProviderKind(config)) return missing('LLM provider', 'none: json, summary, prompt-only extract and research answer 501', fix);
  let model = '';
  try {
    const provider = buildLlmProvider({ ...config, QUARRY_LLM_MAX_RETRIES: 0, QUARRY_LLM_TIMEOUT_MS: Math.min(config.QUARRY_LLM_TIMEOUT_MS, 20_000) });
    if (!provider) return missing('LLM provider', 'none', fix);
    model = provider.model;
    const answer = await provider.generateText({ system: 'Answer with the single word OK.', prompt: 'Are you there?', maxOutputTokens: 5 });
    return ok('LLM provider', `${model} answered (${answer.usage.inputTokens + answer.usage.outputTokens} tokens)`);
  } catch (error) {
    return failing(
      'LLM provider',
      `${model || 'configuration'}: ${messageOf(error)}`,
      'check the provider URL, key and MODEL_NAME (QUARRY_LLM_PROVIDER, OPENAI_BASE_URL, OLLAMA_BASE_URL, ANTHROPIC_API_KEY)',
    );
  }
}

export async function checkSearch(config: ServerConfig): Promise<CheckResult> {
  const choice = searchChoice(config);
  const described = describeSearchProvider(config);
  if (choice === 'serper' && !config.SERPER_API_KEY) return failing('Search', 'QUARRY_SEARCH_PROVIDER=serper without SERPER_API_KEY', 'set SERPER_API_KEY');
  if (choice !== 'searxng') return ok('Search', described);
  if (!config.SEARXNG_ENDPOINT) return failing('Search', 'QUARRY_SEARCH_PROVIDER=searxng without SEARXNG_ENDPOINT', 'set SEARXNG_ENDPOINT');
  try {
    const response = await fetch(config.SEARXNG_ENDPOINT, { signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    return ok('Search', `${described}, answers HTTP ${response.status}`);
  } catch (error) {
    return failing('Search', `${described}: ${messageOf(error)}`, 'start SearXNG or correct SEARXNG_ENDPOINT');
  }
}

export function checkProxies(config: ServerConfig): CheckResult {
  const pools = proxyPoolsOf(config);
  if (pools.basic.length === 0 && pools.enhanced.length === 0)
    return ok('Proxies', 'none (pages are fetched directly; set QUARRY_PROXY_BASIC / QUARRY_PROXY_ENHANCED to use some)');
  const list = (urls: readonly string[]) => (urls.length ? urls.map(maskProxy).join(', ') : 'none');
  return ok('Proxies', `basic: ${list(pools.basic)}; enhanced: ${list(pools.enhanced)}`);
}

export function checkPrivateHosts(config: ServerConfig): CheckResult {
  return ok(
    'Private targets',
    config.QUARRY_ALLOW_PRIVATE_HOSTS
      ? `allowed: ${config.QUARRY_ALLOW_PRIVATE_HOSTS}`
      : 'refused (set QUARRY_ALLOW_PRIVATE_HOSTS to scrape loopback or LAN hosts)',
  );
}

export function checkRateLimits(config: ServerConfig, hasKeys: KeysKnown): CheckResult {
  return ok('Rate limits', describeRateLimits(config, hasKeys ?? false));
}

export function checkAuth(config: ServerConfig, hasKeys: KeysKnown): CheckResult {
  const refusal = keylessRefusal(config, hasKeys ?? false);
  if (refusal)
    return failing(
      'Auth',
      `no API keys and HOST=${config.HOST}: serve will refuse to start`,
      'create a key (npx quarry keys create --team NAME), bind to 127.0.0.1, or set QUARRY_AUTH=off',
    );
  return ok('Auth', `${describeAuth(config, hasKeys ?? false)}${hasKeys === undefined ? ' (keys unknown: the ledger was not read)' : ''}`);
}

export function checkWebhookSecret(config: ServerConfig): CheckResult {
  if (config.QUARRY_WEBHOOK_CA_FILE && !existsSync(config.QUARRY_WEBHOOK_CA_FILE)) {
    return failing(
      'Webhooks',
      `QUARRY_WEBHOOK_CA_FILE ${config.QUARRY_WEBHOOK_CA_FILE} does not exist`,
      'point QUARRY_WEBHOOK_CA_FILE at a PEM file or unset it',
    );
  }
  if (config.QUARRY_WEBHOOK_SECRET) return ok('Webhooks', 'signed with QUARRY_WEBHOOK_SECRET (a team’s own secret wins)');
  return missing('Webhooks', 'unsigned unless a team has its own secret', 'set QUARRY_WEBHOOK_SECRET, or run `npx quarry teams webhook-secret TEAM`');
}

/** A connection URL without its password. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(unparsable URL)';
  }
}
