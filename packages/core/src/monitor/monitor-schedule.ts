import { createRequire } from 'node:module';
import { ValidationError } from '../errors.js';
import type { MonitorSchedule } from '../ports/monitor-store.js';

/**
 * A monitor's schedule: a cron expression (5 fields; 6 with a leading seconds field) or a
 * natural-language text (`every 30 minutes`, `hourly`, `daily at 9:00`, `every 10 seconds`)
 * normalized to cron, read in a time zone (UTC by default). A schedule whose ticks come closer
 * than the operator's minimum interval is refused, naming the field.
 */
export interface ScheduleInput {
  cron?: string | undefined;
  text?: string | undefined;
  timezone?: string | undefined;
}

const units: Record<string, (n: number) => string> = {
  second: (n) => `*/${n} * * * * *`,
  minute: (n) => `*/${n} * * * *`,
  hour: (n) => `0 */${n} * * *`,
  day: (n) => `0 0 */${n} * *`,
};

const fixed: Record<string, string> = {
  hourly: '0 * * * *',
  daily: '0 0 * * *',
  weekly: '0 0 * * 0',
  monthly: '0 0 1 * *',
};

/** The cron of a natural-language schedule, or undefined when the text is not understood. */
export function cronOfText(text: string): string | undefined {
  const words = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const dailyAt = /^(?:daily|every day) at (\d{1,2}):(\d{2})$/.exec(words);
  if (dailyAt) {
    const hour = Number(dailyAt[1]);
    const minute = Number(dailyAt[2]);
    return hour < 24 && minute < 60 ? `${minute} ${hour} * * *` : undefined;
  }
  const every = /^every (\d+ )?(second|minute|hour|day)s?$/.exec(words);
  if (every) {
    const count = every[1] ? Number(every[1]) : 1;
    const unit = every[2]!;
    const max = unit === 'hour' ? 23 : unit === 'day' ? 31 : 59;
    if (count < 1 || count > max) return undefined;
    return units[unit]!(count);
  }
  return fixed[words.replace(/^every /, '')] ?? fixed[words];
}

/**
 * cron-parser (with luxon, ~360 KB of code) loads on the first schedule read, not with the engine:
 * every `quarry` command imports the engine and only monitors read a schedule (~25 ms of CPU at
 * each start, benchmarks/crawl-real-site/README.md, fourth pass).
 */
let cronParser: typeof import('cron-parser') | undefined;
function loadCronParser(): typeof import('cron-parser') {
  cronParser ??= createRequire(import.meta.url)('cron-parser') as typeof import('cron-parser');
  return cronParser;
}

/** Ticks after `afterMs` (epoch ms), at most `count`. Throws when the expression is invalid. */
export function nextTicks(schedule: Pick<MonitorSchedule, 'cron' | 'timezone'>, afterMs: number, count = 1): number[] {
  const expression = loadCronParser().CronExpressionParser.parse(schedule.cron, { currentDate: new Date(afterMs), tz: schedule.timezone });
  return Array.from({ length: count }, () => expression.next().getTime());
}

/** The first tick after `afterMs`. */
export function nextTick(schedule: Pick<MonitorSchedule, 'cron' | 'timezone'>, afterMs: number): number {
  return nextTicks(schedule, afterMs, 1)[0]!;
}

/**
 * Validates and normalizes a schedule. `minIntervalSeconds` is the operator's minimum: the
 * closest two ticks within the next day's worth of ticks may not be nearer.
 */
export function parseSchedule(input: ScheduleInput, minIntervalSeconds: number, now: number): MonitorSchedule {
  const hasCron = typeof input.cron === 'string' && input.cron.trim() !== '';
  const hasText = typeof input.text === 'string' && input.text.trim() !== '';
  if (hasCron === hasText) throw new ValidationError([{ field: 'schedule', message: '`schedule` needs exactly one of `cron` or `text`' }]);
  const timezone = input.timezone ?? 'UTC';
  if (!isTimeZone(timezone))
    throw new ValidationError([{ field: 'schedule.timezone', message: `\`schedule.timezone\` must be an IANA time zone; got "${timezone}"` }]);
  let cron: string;
  if (hasText) {
    const normalized = cronOfText(input.text!);
    if (!normalized) {
      throw new ValidationError([
        {
          field: 'schedule.text',
          message: `\`schedule.text\` is not a schedule Quarry understands (e.g. "every 30 minutes", "hourly", "daily at 9:00"); got "${input.text}"`,
        },
      ]);
    }
    cron = normalized;
  } else cron = input.cron!.trim().replace(/\s+/g, ' ');
  const field = hasText ? 'schedule.text' : 'schedule.cron';
  let ticks: number[];
  try {
    ticks = nextTicks({ cron, timezone }, now, 48);
  } catch (error) {
    throw new ValidationError([{ field, message: `\`${field}\` is not a valid cron expression (${(error as Error).message}); got "${cron}"` }]);
  }
  const closest = ticks.slice(1).reduce((min, tick, index) => Math.min(min, tick - ticks[index]!), Number.POSITIVE_INFINITY);
  if (closest < minIntervalSeconds * 1000) {
    throw new ValidationError([
      {
        field,
        message: `\`${field}\` runs every ${closest / 1000} s; this server's minimum interval is ${minIntervalSeconds} s (QUARRY_MONITOR_MIN_INTERVAL_SECONDS)`,
      },
    ]);
  }
  return { cron, timezone, ...(hasText ? { text: input.text!.trim() } : {}) };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
