import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderApiReport, reportPath } from '../../../scripts/api-report.mjs';

describe('the public surface of @quarry/core', () => {
  it('matches packages/core/api-report.md', () => {
    expect(renderApiReport('core'), 'exports changed: review them, then run node scripts/api-report.mjs --update core').toBe(
      readFileSync(reportPath('core'), 'utf8'),
    );
  }, 120_000);
});
