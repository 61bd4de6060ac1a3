import { describe, expect, it } from 'vitest';
import { ValidationError } from '../errors.js';
import { parseTbs } from './tbs.js';

const now = Date.UTC(2025, 5, 15, 12, 0, 0);
const hour = 3_600_000;

describe('parseTbs', () => {
  it('reads the past hour, day, week, month and year, with counts', () => {
    expect(parseTbs('qdr:h', now)).toEqual({ since: now - hour });
    expect(parseTbs('qdr:d', now)).toEqual({ since: now - 24 * hour });
    expect(parseTbs('qdr:w', now)).toEqual({ since: now - 7 * 24 * hour });
    expect(parseTbs('qdr:m', now)).toEqual({ since: now - 30 * 24 * hour });
    expect(parseTbs('qdr:y', now)).toEqual({ since: now - 365 * 24 * hour });
    expect(parseTbs('qdr:h6', now)).toEqual({ since: now - 6 * hour });
    expect(parseTbs('qdr:d,sbd:1', now)).toEqual({ since: now - 24 * hour });
  });

  it('reads custom date ranges, whole days in UTC, either end optional', () => {
    expect(parseTbs('cdr:1,cd_min:1/2/2025,cd_max:1/31/2025', now)).toEqual({ since: Date.UTC(2025, 0, 2), until: Date.UTC(2025, 1, 1) - 1 });
    expect(parseTbs('cdr:1,cd_min:12/25/2024', now)).toEqual({ since: Date.UTC(2024, 11, 25) });
    expect(parseTbs('cdr:1,cd_max:6/1/2025', now)).toEqual({ until: Date.UTC(2025, 5, 2) - 1 });
  });

  it('answers no range to nothing and refuses what it cannot read', () => {
    expect(parseTbs(undefined, now)).toEqual({});
    expect(parseTbs('', now)).toEqual({});
    for (const bad of ['qdr:x', 'qdr:', 'cdr:1,cd_min:2025-01-01', 'cdr:1,cd_min:2/30/2025', 'cdr:1,cd_min:2/1/2025,cd_max:1/1/2025', 'cdr:2']) {
      expect(() => parseTbs(bad, now), bad).toThrow(ValidationError);
    }
    expect(() => parseTbs('qdr:x', now)).toThrow('`tbs` is not a time filter Quarry reads');
  });
});
