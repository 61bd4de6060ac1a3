/**
 * The embedded backends (SQLite, local folder and S3 blobs). The PostgreSQL, Redis and BullMQ
 * backends of the distributed mode are in `@quarry/storage/distributed`, so that a process that does
 * not use them never loads their drivers (pg, ioredis and bullmq cost ~45 MB of RSS at start).
 */
export * from './open-sqlite.js';
export * from './migrations.js';
export * from './sqlite-job-store.js';
export * from './sqlite-queue.js';
export * from './sqlite-ledger.js';
export * from './sqlite-document-cache.js';
export * from './sqlite-page-index.js';
export * from './sqlite-change-history.js';
export * from './sqlite-monitor-store.js';
export * from './sqlite-webhook-outbox.js';
export * from './local-blob-store.js';
export * from './sqlite-storage.js';
export { apiKeyPattern } from './api-key.js';
export * from './s3/s3-blob-store.js';
