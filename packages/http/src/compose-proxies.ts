import type { ProxyPoolConfig, ServerConfig } from '@quarry/core';

/**
 * The proxy pools from the configuration: QUARRY_PROXY_BASIC / QUARRY_PROXY_ENHANCED (comma-
 * separated URLs, validated by the config schema), and Firecrawl's PROXY_SERVER (+ PROXY_USERNAME,
 * PROXY_PASSWORD) as the basic pool when QUARRY_PROXY_BASIC is not set.
 */
export function proxyPoolsOf(config: ServerConfig): ProxyPoolConfig {
  return {
    basic: config.QUARRY_PROXY_BASIC ? splitList(config.QUARRY_PROXY_BASIC) : firecrawlProxy(config),
    enhanced: config.QUARRY_PROXY_ENHANCED ? splitList(config.QUARRY_PROXY_ENHANCED) : [],
  };
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

function firecrawlProxy(config: ServerConfig): string[] {
  if (!config.PROXY_SERVER) return [];
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(config.PROXY_SERVER) ? config.PROXY_SERVER : `http://${config.PROXY_SERVER}`);
  if (config.PROXY_USERNAME) url.username = encodeURIComponent(config.PROXY_USERNAME);
  if (config.PROXY_PASSWORD) url.password = encodeURIComponent(config.PROXY_PASSWORD);
  return [url.href.replace(/\/$/, '')];
}

/** A proxy URL with its credentials masked, for logs. */
export function maskProxy(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.href.replace(/\/$/, '');
}
