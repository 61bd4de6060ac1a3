import type { Command } from 'commander';
import { ValidationError, type ServerConfig } from '@quarry/core';
import { privateHostsOverride } from './cli-flags.js';
import { loadConfig } from './compose.js';
import { isDistributed } from './distributed-mode.js';

/**
 * `quarry worker`: page workers of the distributed mode in a process with no HTTP server. It takes
 * pages from the BullMQ queue, scrapes them, stores results in PostgreSQL and delivers webhooks.
 * SIGTERM or SIGINT stops it gracefully: it takes no new page, lets the pages in flight finish
 * (up to QUARRY_SHUTDOWN_GRACE_MS; pages still running then return to the queue when their lease
 * ends), closes its connections and exits. A second signal exits at once.
 */
export function workerCommand(program: Command) {
  program
    .command('worker')
    .description('Run page workers of the distributed mode (needs DATABASE_URL and REDIS_URL): scrape queued pages, deliver webhooks; no HTTP.')
    .option('--concurrency <n>', 'pages this process scrapes at once (default QUARRY_WORKER_CONCURRENCY or 16)')
    .option('--allow-private-hosts [hosts]', 'allow loopback/private targets (comma-separated hosts or CIDRs; all when no value)')
    .action(async (flags: { concurrency?: string; allowPrivateHosts?: string | boolean }) => {
      const overrides: Record<string, string> = { ...privateHostsOverride(flags.allowPrivateHosts) };
      if (flags.concurrency) overrides.QUARRY_WORKER_CONCURRENCY = flags.concurrency;
      await runWorker(loadConfig({ ...process.env, ...overrides }));
    });
}

/** Runs a worker process until SIGTERM/SIGINT, then exits. */
export async function runWorker(config: ServerConfig): Promise<void> {
  if (!isDistributed(config)) {
    throw new ValidationError('`quarry worker` runs the distributed mode: set DATABASE_URL (PostgreSQL) and REDIS_URL (Redis)', 'DATABASE_URL');
  }
  const log = (line: string) => {
    if (!['warn', 'error', 'fatal', 'silent'].includes(config.LOG_LEVEL)) process.stderr.write(`quarry worker ${process.pid}: ${line}\n`);
  };
  const { composeDistributed } = await import('./compose-distributed.js');
  const parts = await composeDistributed(config, 'worker');
  await parts.reconcile();
  parts.services.runner.start();
  log(
    `taking pages (concurrency ${config.QUARRY_WORKER_CONCURRENCY}, lease ${config.QUARRY_LEASE_MS} ms, schema ${config.QUARRY_PG_SCHEMA}, prefix ${config.QUARRY_REDIS_PREFIX})`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      log(`${signal} again: exiting now`);
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: taking no new pages; finishing the ones in flight (up to ${config.QUARRY_SHUTDOWN_GRACE_MS} ms)`);
    const grace = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), config.QUARRY_SHUTDOWN_GRACE_MS).unref());
    const outcome = await Promise.race([parts.close().then(() => 'closed' as const), grace]);
    log(outcome === 'closed' ? 'stopped cleanly' : 'grace period over: pages still in flight return to the queue after their lease');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await new Promise(() => undefined);
}
