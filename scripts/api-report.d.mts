/** Declarations of api-report.mjs for the type-checked tests that import it. */
export declare const packageNames: string[];
export declare function reportPath(pkg: string): string;
export declare function renderApiReport(pkg: string): string;
