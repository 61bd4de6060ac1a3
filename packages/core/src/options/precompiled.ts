import { requestSchemas } from '../jobs/stored-request-schemas.js';
import { crawlRequestSchemaV1, crawlRequestSchemaV2 } from './crawl-options.js';
import { crawlRequestV1, crawlRequestV2, scrapeOptionsV1, scrapeOptionsV2, storedCrawlRequest } from './precompiled-validators.generated.js';
import { scrapeOptionsSchemaV1, scrapeOptionsSchemaV2 } from './scrape-options.js';
import { serverConfigSchema } from './server-config.js';
import { serverConfig } from './server-config-validator.generated.js';
import { usePrecompiled } from './validators.js';

// A crawl's start compiled these two schemas (~80-90 ms of CPU): their validators are generated at
// build time instead (the root scripts/write-core-validators.ts), from the same schemas with the same options.
usePrecompiled(crawlRequestSchemaV2, crawlRequestV2);
usePrecompiled(scrapeOptionsSchemaV2, scrapeOptionsV2);
// A crawl job's request, checked when the job store hands the job back.
usePrecompiled(requestSchemas.crawl, storedCrawlRequest);
// The v1 API's pair: a server's first `POST /v1/crawl` compiled both (and loaded ajv) inside the request.
usePrecompiled(crawlRequestSchemaV1, crawlRequestV1);
usePrecompiled(scrapeOptionsSchemaV1, scrapeOptionsV1);
// The server configuration's, whole (coercing): with the two above, a crawl's start loads no ajv.
usePrecompiled(serverConfigSchema, serverConfig);
