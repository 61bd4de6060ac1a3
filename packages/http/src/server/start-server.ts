import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '@quarry/core';
import { findChromium } from '@quarry/adapters';
import { describeSearchProvider } from '../compose-search.js';
import { buildServer } from './build-server.js';
import { isLoopbackHost, isUnthrottledKeyless } from './loopback.js';
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

export async function startServer(services: Services, config: ServerConfig, options: { close: () => Promise<void>; logger?: object | boolean }): Promise<RunningServer> {
  const app = buildServer(services, { logger: options.logger ?? false });
  const hasKeys = await services.ledger.hasAnyKey();
  if (config.QUARRY_AUTH === 'auto' && !hasKeys && !isLoopbackHost(config.HOST)) {
    throw new Error(
      `Refusing to serve ${config.HOST} without API keys: anyone could use this instance. ` +
        'Create a key (npx quarry keys create --team NAME), bind to 127.0.0.1, or set QUARRY_AUTH=off.',
    );
  }
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
  log.info(
    isUnthrottledKeyless(config) && !hasKeys
      ? 'Rate limits: none for keyless requests on loopback (set QUARRY_RATE_LIMITS to apply them); per team once keys exist'
      : `Rate limits: per team and endpoint kind (${config.QUARRY_RATE_LIMITS || 'defaults'})`,
  );
  log.info(
    config.QUARRY_AUTH === 'off'
      ? 'Auth: off (QUARRY_AUTH=off): every request is accepted'
      : hasKeys || config.QUARRY_AUTH === 'required'
        ? 'Auth: API key required (Authorization: Bearer fc-...)'
        : 'Auth: no API keys exist and the server is bound to loopback, so requests need no key; create one with `npx quarry keys create --team NAME`',
  );
  log.info(`Private targets allowed: ${config.QUARRY_ALLOW_PRIVATE_HOSTS || 'none'}`);
  log.info(`Docs: ${url}/docs`);
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
