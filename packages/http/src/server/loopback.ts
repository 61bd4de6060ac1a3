import { isIP } from 'node:net';
import type { ServerConfig } from '@quarry/core';

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/**
 * One person on a laptop: requests without a key to a server bound to loopback are not rate
 * limited unless the operator set QUARRY_RATE_LIMITS (Firecrawl's self-hosted mode has no limits
 * when auth is off). Requests with a key are always limited per team.
 */
export function isUnthrottledKeyless(config: ServerConfig): boolean {
  return config.QUARRY_RATE_LIMITS === '' && isLoopbackHost(config.HOST);
}
