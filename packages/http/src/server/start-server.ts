import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '@quarry/core';
import { findChromium } from '@quarry/adapters';
import { describeSearchProvider } from '../compose-search.js';
import { buildServer } from './build-server.js';
import { describeAuth, describeRateLimits, keylessRefusal } from './setup-words.js';
import type { Services } from './services.js';

/**
 * Starts the HTTP server and says, in the log, where data lives, which engines and providers are
 * configured, how authentication works and where the docs are.
 */
export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export { isLoopbackHost } from './loopback.js';

export async function startServer(
  services: Services,
  config: ServerConfig,
  options: { close: () => Promise<void>; logger?: object | boolean },
): Promise<RunningServer> {
  const app = buildServer(services, { logger: options.logger ?? false });
  const hasKeys = await services.ledger.hasAnyKey();
  const refusal = keylessRefusal(config, hasKeys);
  if (refusal) throw new Error(refusal);
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  const url = address.replace('0.0.0.0', '127.0.0.1');
  services.runner.start();
  const log = app.log;
  log.info(`Quarry listening on ${address}`);
  log.info(`Data: SQLite file, queue and blobs in ${config.QUARRY_DATA_DIR}`);
  const chromium = findChromium(config.QUARRY_CHROMIUM_PATH);
  log.info(`Engines: http (got-scraping); browser: ${chromium ? `Chromium at ${chromium}` : 'off (install chromium or set QUARRY_CHROMIUM_PATH)'}`);
  log.info(
    `LLM provider: ${services.llm ? services.llm.model : 'none (json, summary, prompt-only extract and research answer 501 saying how to configure one)'}; ` +
      `search provider: ${describeSearchProvider(config)}`,
  );
  log.info(`Rate limits: ${describeRateLimits(config, hasKeys)}`);
  log.info(`Auth: ${describeAuth(config, hasKeys)}`);
  log.info(`Private targets allowed: ${config.QUARRY_ALLOW_PRIVATE_HOSTS || 'none'}`);
  log.info(`Docs: ${url}/docs`);
  log.info('Check the setup (storage, browser, LLM, search, proxies): npx quarry doctor');
  return {
    app,
    url,
    close: async () => {
      await app.close();
      await services.runner.stop();
      await options.close();
    },
  };
}
