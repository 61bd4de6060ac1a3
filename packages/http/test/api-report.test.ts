import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApiReport, reportPath } from '../../../scripts/api-report.mjs';

describe('the public surface of @quarry/http', () => {
  it('matches packages/http/api-report.md', () => {
    expect(renderApiReport('http'), 'exports changed: review them, then run node scripts/api-report.mjs --update http').toBe(
      readFileSync(reportPath('http'), 'utf8'),
    );
  }, 120_000);
});
