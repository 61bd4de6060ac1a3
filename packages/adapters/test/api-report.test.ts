import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApiReport, reportPath } from '../../../scripts/api-report.mjs';

describe('the public surface of @quarry/adapters', () => {
  it('matches packages/adapters/api-report.md', () => {
    expect(renderApiReport('adapters'), 'exports changed: review them, then run node scripts/api-report.mjs --update adapters').toBe(
      readFileSync(reportPath('adapters'), 'utf8'),
    );
  }, 120_000);
});
