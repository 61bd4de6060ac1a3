import { ValidationError } from '../errors.js';

/**
 * Google's `tbs` time filter as a time range, for providers that filter by date themselves (the
 * embedded index filters on when a page was stored):
 *
 * | tbs                                          | range                                        |
 * |----------------------------------------------|----------------------------------------------|
 * | `qdr:h` `qdr:d` `qdr:w` `qdr:m` `qdr:y`       | the past hour, day, week, month, year        |
 * | `qdr:h6`, `qdr:d3`, ...                       | the past N of them                           |
 * | `cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY`       | from the start of cd_min to the end of cd_max (UTC); either may be left out |
 *
 * Other `tbs` parts (`sbd:1`, `li:1`) are ignored. Anything unreadable is a ValidationError.
 */
export interface TimeRange {
  since?: number;
  until?: number;
}

const hour = 3_600_000;
const day = 24 * hour;
const spans: Record<string, number> = { h: hour, d: day, w: 7 * day, m: 30 * day, y: 365 * day };
const dayMs = day;

export function parseTbs(tbs: string | undefined, now: number): TimeRange {
  if (!tbs || tbs.trim() === '') return {};
  const parts = tbs.split(',').map((part) => part.trim());
  const range: TimeRange = {};
  for (const part of parts) {
    const [name, value = ''] = splitOnce(part);
    if (name === 'qdr') {
      const match = /^([hdwmy])(\d{0,4})$/.exec(value);
      if (!match) throw invalid(tbs);
      const count = match[2] ? Number(match[2]) : 1;
      range.since = now - count * spans[match[1]!]!;
    } else if (name === 'cd_min') {
      range.since = dateOf(value, tbs);
    } else if (name === 'cd_max') {
      range.until = dateOf(value, tbs) + dayMs - 1;
    } else if (name === 'cdr' && value !== '1') {
      throw invalid(tbs);
    }
  }
  if (range.since !== undefined && range.until !== undefined && range.since > range.until) throw invalid(tbs, 'cd_min is after cd_max');
  return range;
}

function splitOnce(part: string): [string, string] {
  const at = part.indexOf(':');
  return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
}

function dateOf(value: string, tbs: string): number {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!match) throw invalid(tbs, `dates are M/D/YYYY; got ${JSON.stringify(value)}`);
  const [month, date, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, date);
  if (new Date(time).getUTCMonth() !== month - 1 || new Date(time).getUTCDate() !== date) throw invalid(tbs, `no such date ${value}`);
  return time;
}

function invalid(tbs: string, why = 'expected qdr:h|d|w|m|y or cdr:1,cd_min:M/D/YYYY,cd_max:M/D/YYYY'): ValidationError {
  return new ValidationError(`\`tbs\` is not a time filter Quarry reads (${why}); got ${JSON.stringify(tbs)}`, 'tbs');
}
