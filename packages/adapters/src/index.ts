export { GotFetcher, type GotFetcherOptions } from './got-fetcher.js';
export { SsrfGuard, type GuardedLookup, type Resolver, type SsrfGuardOptions } from './ssrf-guard.js';
export { classifyAddress, describeAddress, type AddressClass, type AddressKind, type Embedding } from './ip-ranges.js';
export { isAllowedByList, parseAllowList, type AllowList } from './allow-list.js';
export { WorkerPoolTransformer, type WorkerPoolTransformerOptions } from './worker-pool-transformer.js';
export { WebhookDeliverer, webhookBackoff, type WebhookDelivererOptions, type WebhookLogger } from './webhook-deliverer.js';
export { signWebhookBody, verifyWebhookSignature } from './webhook-signature.js';
