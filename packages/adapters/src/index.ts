export { GotFetcher, type GotFetcherOptions } from './got-fetcher.js';
export { SsrfGuard, type GuardedLookup, type Resolver, type SsrfGuardOptions } from './ssrf-guard.js';
export { classifyAddress, describeAddress, type AddressClass, type AddressKind, type Embedding } from './ip-ranges.js';
export { isAllowedByList, parseAllowList, type AllowList } from './allow-list.js';
export { WorkerPoolTransformer, defaultTransformDeadlineMs, defaultWorkerLimits, type WorkerPoolTransformerOptions } from './worker-pool-transformer.js';
export { WebhookDeliverer, webhookBackoff, type WebhookDelivererOptions, type WebhookLogger } from './webhook-deliverer.js';
export { signWebhookBody, verifyWebhookSignature } from './webhook-signature.js';
export { PlaywrightFetcher, pageSettling, type OpenPage, type PlaywrightFetcherOptions } from './browser/playwright-fetcher.js';
export { BrowserSessionRegistry, type BrowserSessionOptions } from './browser/browser-sessions.js';
export {
  BrowserPool,
  browserPoolDefaults,
  defaultChromiumFlags,
  type BrowserPoolOptions,
  type BrowserPoolStats,
  type ContextLease,
} from './browser/browser-pool.js';
export { findChromium, chromiumCandidates } from './browser/chromium-path.js';
export { AdBlocker } from './browser/ad-blocker.js';
export { defaultFilterList, cookieBannerSelectors } from './browser/default-filter-list.js';
export { GuardedProxy } from './browser/guarded-proxy.js';
export * from './llm/index.js';
export * from './search/index.js';
