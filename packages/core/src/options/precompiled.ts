import { requestSchemas } from '../jobs/stored-request-schemas.js';
import { crawlRequestSchemaV2 } from './crawl-options.js';
import { crawlRequestV2, scrapeOptionsV2, storedCrawlRequest } from './precompiled-validators.generated.js';
import { scrapeOptionsSchemaV2 } from './scrape-options.js';
import { serverConfigSchema } from './server-config.js';
import { serverConfig } from './server-config-validator.generated.js';
import { usePrecompiled } from './validators.js';

// A crawl's start compiled these two schemas (~80-90 ms of CPU): their validators are generated at
// build time instead (the root scripts/write-core-validators.ts), from the same schemas with the same options.
usePrecompiled(crawlRequestSchemaV2, crawlRequestV2);
usePrecompiled(scrapeOptionsSchemaV2, scrapeOptionsV2);
// A crawl job's request, checked when the job store hands the job back.
usePrecompiled(requestSchemas.crawl, storedCrawlRequest);
// The server configuration's, whole (coercing): with the two above, a crawl's start loads no ajv.
usePrecompiled(serverConfigSchema, serverConfig);
