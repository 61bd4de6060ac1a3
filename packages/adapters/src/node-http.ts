/**
 * node:http, loaded through `require` rather than an ES import. On Node 22 an ES import of node:http
 * builds the module's namespace from every export, and its lazy `WebSocket` / `MessageEvent` /
 * `CloseEvent` getters load node's undici bundle: ~50 ms of CPU at every process start that a crawl
 * never uses (packages/http/test/cli-start-modules.test.ts checks the CLI's crawl does not load it).
 * Types still come from `import type http from 'node:http'`, which compiles to nothing.
 */
import { createRequire } from 'node:module';

export const nodeHttp: typeof import('node:http') = createRequire(import.meta.url)('node:http');
