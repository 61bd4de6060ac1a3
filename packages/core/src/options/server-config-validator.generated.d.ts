// Type of the generated validator (server-config-validator.generated.js, the root scripts/write-core-validators.ts).
import type { ValidateFunction } from 'ajv';

export declare const serverConfig: ValidateFunction;
