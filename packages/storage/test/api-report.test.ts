import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApiReport, reportPath } from '../../../scripts/api-report.mjs';

describe('the public surface of @quarry/storage', () => {
  it('matches packages/storage/api-report.md', () => {
    expect(renderApiReport('storage'), 'exports changed: review them, then run node scripts/api-report.mjs --update storage').toBe(
      readFileSync(reportPath('storage'), 'utf8'),
    );
  }, 120_000);
});
