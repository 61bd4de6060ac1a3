import { describe, expect, it } from 'vitest';
import type { ValidationError } from '../errors.js';
import { cronOfText, nextTick, parseSchedule } from './monitor-schedule.js';

const now = Date.UTC(2026, 0, 5, 10, 7, 13);

describe('monitor schedules', () => {
  it('turns words into cron', () => {
    expect(cronOfText('every 30 minutes')).toBe('*/30 * * * *');
    expect(cronOfText('Every  minute')).toBe('*/1 * * * *');
    expect(cronOfText('hourly')).toBe('0 * * * *');
    expect(cronOfText('daily at 9:05')).toBe('5 9 * * *');
    expect(cronOfText('every 10 seconds')).toBe('*/10 * * * * *');
    expect(cronOfText('every 61 minutes')).toBeUndefined();
    expect(cronOfText('when it rains')).toBeUndefined();
  });

  it('finds the next tick in the time zone', () => {
    expect(new Date(nextTick({ cron: '0 9 * * *', timezone: 'UTC' }, now)).toISOString()).toBe('2026-01-06T09:00:00.000Z');
    expect(new Date(nextTick({ cron: '0 9 * * *', timezone: 'Europe/Paris' }, now)).toISOString()).toBe('2026-01-06T08:00:00.000Z');
    expect(new Date(nextTick({ cron: '*/2 * * * * *', timezone: 'UTC' }, now)).toISOString()).toBe('2026-01-05T10:07:14.000Z');
  });

  it('normalizes and enforces the minimum interval, naming the field', () => {
    expect(parseSchedule({ text: 'daily' }, 300, now)).toEqual({ cron: '0 0 * * *', text: 'daily', timezone: 'UTC' });
    expect(parseSchedule({ cron: ' */5  * * * * ' }, 300, now)).toEqual({ cron: '*/5 * * * *', timezone: 'UTC' });
    const fieldOf = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as ValidationError).issues[0]!.field;
      }
      return undefined;
    };
    expect(fieldOf(() => parseSchedule({ cron: '* * * * *' }, 300, now))).toBe('schedule.cron');
    expect(fieldOf(() => parseSchedule({ text: 'every 10 seconds' }, 300, now))).toBe('schedule.text');
    expect(fieldOf(() => parseSchedule({ cron: '0 * * * *', text: 'hourly' }, 300, now))).toBe('schedule');
    expect(fieldOf(() => parseSchedule({ cron: '0 * * * *', timezone: 'Nowhere/Else' }, 300, now))).toBe('schedule.timezone');
    expect(fieldOf(() => parseSchedule({ cron: '61 * * * *' }, 300, now))).toBe('schedule.cron');
  });
});
