// Type of the generated validator (server-config-validator.generated.js, scripts/generate-validators.ts).
import type { ValidateFunction } from 'ajv';

export declare const serverConfig: ValidateFunction;
