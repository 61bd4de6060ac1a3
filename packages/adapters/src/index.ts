export { GotFetcher, type GotFetcherOptions } from './got-fetcher.js';
export { SsrfGuard, type GuardedLookup, type Resolver, type SsrfGuardOptions } from './ssrf-guard.js';
export { classifyAddress, describeAddress, type AddressClass, type AddressKind, type Embedding } from './ip-ranges.js';
export { isAllowedByList, parseAllowList, type AllowList } from './allow-list.js';
