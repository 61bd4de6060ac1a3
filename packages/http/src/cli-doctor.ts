import type { Command } from 'commander';
import { asQuarryError, type ServerConfig } from '@quarry/core';
import { loadConfig } from './compose.js';
import { isDistributed } from './distributed-mode.js';
import {
  checkAuth,
  checkChromium,
  checkDataFolder,
  checkLlm,
  checkNode,
  checkPostgres,
  checkPrivateHosts,
  checkProxies,
  checkRateLimits,
  checkRedis,
  checkSearch,
  checkSqlite,
  checkWebhookSecret,
  type CheckResult,
} from './doctor/doctor-checks.js';

/**
 * `quarry doctor`: what this configuration turns on, each part checked (storage and the LLM with
 * one real round trip). Prints a line per part; exits 1 when something configured does not work.
 */
export function doctorCommand(program: Command) {
  program
    .command('doctor')
    .description('Check the setup: Node, data folder, storage, browser, LLM, search, proxies, auth, webhooks. Exits 1 when a configured part fails.')
    .action(async () => {
      const results = await runChecks(process.env);
      process.stdout.write(results.map(renderLine).join(''));
      const failures = results.filter((result) => result.status === 'failing').length;
      process.stdout.write(
        failures ? `\n${failures} configured part${failures === 1 ? '' : 's'} not working: see the fixes above.\n` : '\nNothing configured is failing.\n',
      );
      if (failures) process.exitCode = 1;
    });
}

export async function runChecks(env: Record<string, string | undefined>): Promise<CheckResult[]> {
  let config: ServerConfig;
  let distributed: boolean;
  try {
    config = loadConfig(env);
    distributed = isDistributed(config);
  } catch (error) {
    const quarryError = asQuarryError(error);
    return [
      checkNode(),
      {
        name: 'Configuration',
        status: 'failing',
        detail: quarryError.message,
        fix: 'correct the environment variable named above (see the README’s environment table)',
      },
    ];
  }
  const storage = distributed ? await checkPostgres(config) : await checkSqlite(config);
  const hasKeys = storage.hasKeys;
  return [
    checkNode(),
    await checkDataFolder(config),
    storage.result,
    ...(distributed ? [await checkRedis(config)] : []),
    await checkChromium(config),
    await checkLlm(config),
    await checkSearch(config),
    checkProxies(config),
    checkPrivateHosts(config),
    checkRateLimits(config, hasKeys),
    checkAuth(config, hasKeys),
    checkWebhookSecret(config),
  ];
}

const labels = { ok: 'OK     ', missing: 'missing', failing: 'FAILING' } as const;

function renderLine(result: CheckResult): string {
  return `${labels[result.status]}  ${result.name}: ${result.detail}${result.fix ? `\n         fix: ${result.fix}` : ''}\n`;
}
