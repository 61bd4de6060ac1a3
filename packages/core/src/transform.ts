/**
 * `@quarry/core/transform`: what a transform worker thread loads. The engine's entry (`index.ts`)
 * brings the option schemas (zod, typebox, ajv), the job runner, billing, cron and the rest of the
 * engine into every isolate that imports it; a worker that only converts HTML needs this much
 * (~12 MB of RSS to load against ~35 MB for the whole entry).
 */
export { QuarryError } from './errors.js';
export { transformHtml } from './scrape/transform-html.js';
