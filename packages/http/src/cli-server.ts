import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isReadableLog, readableLogStream } from './server/log-lines.js';
import type { Command } from 'commander';
import { createSqliteStorage } from '@quarry/storage';
import { NotFoundError, ValidationError, type Ledger } from '@quarry/core';
import { privateHostsOverride } from './cli-flags.js';
import { runWorker } from './cli-worker.js';
import { loadConfig } from './compose.js';
import { isDistributed } from './distributed-mode.js';

/** `quarry serve`, and the key and credit commands of the embedded default. */
export function serveCommand(program: Command) {
  program
    .command('serve')
    .description('Run the Firecrawl-compatible HTTP server on the embedded default (SQLite in QUARRY_DATA_DIR).')
    .option('--port <port>', 'port (default PORT or 3002)')
    .option('--host <host>', 'address to bind (default HOST or 127.0.0.1)')
    .option('--allow-private-hosts [hosts]', 'allow loopback/private targets (comma-separated hosts or CIDRs; all when no value)')
    .option('--role <role>', 'with DATABASE_URL and REDIS_URL: api, worker or all (default QUARRY_ROLE or all)')
    .action(async (flags: { port?: string; host?: string; allowPrivateHosts?: string | boolean; role?: string }) => {
      const overrides: Record<string, string> = { ...privateHostsOverride(flags.allowPrivateHosts) };
      if (flags.port) overrides.PORT = flags.port;
      if (flags.host) overrides.HOST = flags.host;
      if (flags.role) overrides.QUARRY_ROLE = flags.role;
      const config = loadConfig({ ...process.env, ...overrides });
      const distributed = isDistributed(config);
      if (distributed && config.QUARRY_ROLE === 'worker') return runWorker(config);
      const parts = distributed
        ? await (await import('./compose-distributed.js')).composeDistributed(config)
        : await (await import('./compose-server.js')).composeServer(config);
      let running: import('./server/start-server.js').RunningServer;
      try {
        running = await (await import('./server/start-server.js')).startServer(parts.services, config, {
          close: parts.close,
          logger: {
            level: config.LOG_LEVEL,
            ...(isReadableLog(config.QUARRY_LOG_FORMAT, process.stdout.isTTY === true) ? { stream: readableLogStream(process.stdout) } : {}),
          },
        });
      } catch (error) {
        await parts.close();
        throw error;
      }
      const shutdown = async (signal: string) => {
        running.app.log.info(`${signal}: finishing in-flight pages, then exiting`);
        await running.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void shutdown('SIGINT'));
      process.once('SIGTERM', () => void shutdown('SIGTERM'));
      await new Promise(() => undefined);
    });
}

export function keysCommands(program: Command) {
  /**
   * Opens the storage a command works on and says which (stderr). A read-only command never creates
   * a data folder: run elsewhere by mistake, it refuses instead of listing an empty new one.
   */
  const withStorage = async <T>(run: (storage: { ledger: Ledger }) => Promise<T>, access: 'read' | 'write' = 'write'): Promise<T> => {
    const config = loadConfig();
    const distributed = isDistributed(config);
    if (!distributed) {
      const folder = resolve(config.QUARRY_DATA_DIR);
      if (access === 'read' && !existsSync(join(folder, 'quarry.db'))) {
        throw new NotFoundError(
          `No Quarry data in ${folder} (QUARRY_DATA_DIR${process.env.QUARRY_DATA_DIR ? '' : ' unset: ./.quarry of this folder'}). ` +
            'Run the command in the folder where the server runs, or set QUARRY_DATA_DIR to its data folder.',
        );
      }
      process.stderr.write(`Data folder: ${folder}\n`);
    } else {
      process.stderr.write(`Storage: PostgreSQL (schema ${config.QUARRY_PG_SCHEMA})\n`);
    }
    const storage = distributed
      ? await (await import('@quarry/storage/distributed')).createPostgresStorage({
          connectionString: config.DATABASE_URL!,
          schema: config.QUARRY_PG_SCHEMA,
          maxConnections: 2,
        })
      : createSqliteStorage({ dataDir: config.QUARRY_DATA_DIR });
    try {
      return await run(storage);
    } finally {
      await storage.close();
    }
  };
  const parseCount = (value: string, flag: string) => {
    if (value === 'unlimited') return null;
    const count = Number(value);
    if (!Number.isInteger(count) || count < 0)
      throw new ValidationError(`${flag} must be a whole number >= 0 or "unlimited"; got ${JSON.stringify(value)}`, flag.replace(/^--/, ''));
    return count;
  };
  const parseCredits = (value: string) => parseCount(value, '--credits');

  const keys = program.command('keys').description('API keys of the embedded default.');
  keys
    .command('create')
    .description('Create an API key for a team (created when new); prints the key as the last line.')
    .requiredOption('--team <name>', 'team name')
    .option('--name <name>', 'a name for the key', 'default')
    .option('--credits <n>', 'set the team’s credits (a number or "unlimited")', parseCredits)
    .action(async (flags: { team: string; name: string; credits?: number | null }) => {
      await withStorage(async (storage) => {
        const existed = await storage.ledger.getTeam(flags.team);
        await storage.ledger.ensureTeam(flags.team, flags.team);
        if (flags.credits !== undefined) await storage.ledger.setCredits(flags.team, flags.credits);
        else if (!existed) await storage.ledger.setCredits(flags.team, loadConfig().QUARRY_DEFAULT_CREDITS);
        const created = await storage.ledger.createKey(flags.team, flags.name);
        const credits = await storage.ledger.getCredits(flags.team);
        process.stderr.write(
          `Created key ${created.id} "${created.name}" for team ${flags.team} (credits: ${credits ?? 'unlimited'}). It is shown only once:\n`,
        );
        process.stdout.write(`${created.key}\n`);
      });
    });
  keys
    .command('list')
    .description('List keys (never the secrets).')
    .option('--team <name>', 'only this team')
    .action(async (flags: { team?: string }) => {
      await withStorage(async (storage) => {
        const teams = flags.team ? [flags.team] : (await storage.ledger.listTeams()).map((team: { id: string }) => team.id);
        for (const teamId of teams) {
          for (const key of await storage.ledger.listKeys(teamId)) {
            const state = key.revokedAt ? `revoked ${new Date(key.revokedAt).toISOString()}` : 'active';
            process.stdout.write(`${key.id}\t${teamId}\t${key.name}\t${key.prefix}…${key.last4}\t${state}\n`);
          }
        }
      }, 'read');
    });
  keys
    .command('revoke')
    .description('Revoke a key by id, or by the key itself (fc-...); it stops working at once.')
    .argument('<key>', 'the key id (see keys list) or the key (shown once, at creation)')
    .action(async (given: string) => {
      await withStorage(async (storage) => {
        // The secret itself is often all an operator kept: find its id without printing it.
        const keyId = given.startsWith('fc-') ? (await storage.ledger.authenticate(given))?.keyId : given;
        if (!keyId || !(await storage.ledger.revokeKey(keyId))) {
          throw new ValidationError(given.startsWith('fc-') ? 'No active key matches the key given' : `No active key with id ${given}`, 'key');
        }
        process.stdout.write(`Revoked ${keyId}\n`);
      }, 'read');
    });

  const teams = program.command('teams').description('Team credits and webhook secrets.');
  teams
    .command('webhook-secret')
    .description('Create (or replace) the team’s webhook signing secret and print it; --remove turns signing off.')
    .argument('<team>', 'team name')
    .option('--remove', 'remove the secret')
    .action(async (team: string, flags: { remove?: boolean }) => {
      await withStorage(async (storage) => {
        await storage.ledger.ensureTeam(team, team);
        if (flags.remove) {
          await storage.ledger.setWebhookSecret(team, null);
          process.stdout.write(`Removed the webhook secret of ${team}\n`);
          return;
        }
        const secret = `whsec_${randomBytes(24).toString('hex')}`;
        await storage.ledger.setWebhookSecret(team, secret);
        process.stderr.write(`Webhooks of ${team} are now signed (X-Quarry-Signature, X-Firecrawl-Signature: sha256=HMAC of the body) with:\n`);
        process.stdout.write(`${secret}\n`);
      });
    });
  teams
    .command('credit')
    .description('Show or set a team’s credits.')
    .argument('<team>', 'team name')
    .argument('[credits]', 'new balance (a number or "unlimited")')
    .action(async (team: string, value: string | undefined) => {
      await withStorage(
        async (storage) => {
          await storage.ledger.ensureTeam(team, team);
          if (value !== undefined) await storage.ledger.setCredits(team, parseCredits(value));
          const credits = await storage.ledger.getCredits(team);
          process.stdout.write(`${team}\t${credits ?? 'unlimited'}\n`);
        },
        value === undefined ? 'read' : 'write',
      );
    });
  teams
    .command('tokens')
    .description('Show or set a team’s token plan; prints the plan and the tokens used (extract and json formats draw it down).')
    .argument('<team>', 'team name')
    .argument('[tokens]', 'new plan (a number or "unlimited")')
    .action(async (team: string, value: string | undefined) => {
      await withStorage(async (storage) => {
        await storage.ledger.ensureTeam(team, team);
        if (value !== undefined) await storage.ledger.setTokens(team, parseCount(value, '--tokens'));
        const { tokens, tokensUsed } = (await storage.ledger.getTeam(team))!;
        process.stdout.write(`${team}\t${tokens ?? 'unlimited'}\t${tokensUsed} used\n`);
      });
    });
}
