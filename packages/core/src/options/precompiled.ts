import { crawlRequestSchemaV2 } from './crawl-options.js';
import { crawlRequestV2, scrapeOptionsV2 } from './precompiled-validators.generated.js';
import { scrapeOptionsSchemaV2 } from './scrape-options.js';
import { usePrecompiled } from './validators.js';

// A crawl's start compiled these two schemas (~80-90 ms of CPU): their validators are generated at
// build time instead (scripts/generate-validators.ts), from the same schemas with the same options.
usePrecompiled(crawlRequestSchemaV2, crawlRequestV2);
usePrecompiled(scrapeOptionsSchemaV2, scrapeOptionsV2);
