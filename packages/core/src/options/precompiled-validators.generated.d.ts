// Types of the generated validators (precompiled-validators.generated.js, the root scripts/write-core-validators.ts).
import type { ValidateFunction } from 'ajv';

export declare const crawlRequestV2: ValidateFunction;
export declare const scrapeOptionsV2: ValidateFunction;
export declare const storedCrawlRequest: ValidateFunction;
export declare const crawlRequestV1: ValidateFunction;
export declare const scrapeOptionsV1: ValidateFunction;
