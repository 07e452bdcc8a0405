import { errors } from '@crawl/errors';
import { Cron } from 'croner';

export const DEFAULT_TIMEZONE = 'UTC';
const SAMPLE_RUNS = 30;
const SAMPLE_MONTHS = 13;

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The fields of a 6-field expression; a 5-field one has no seconds. */
const FIELDS = [
  { name: 'second', range: '0-59' },
  { name: 'minute', range: '0-59' },
  { name: 'hour', range: '0-23' },
  { name: 'day-of-month', range: '1-31' },
  { name: 'month', range: '1-12 or JAN-DEC' },
  { name: 'day-of-week', range: '0-7 or SUN-SAT' },
] as const;
/** croner's names for the fields, in its own order (seconds first, then an optional year). */
const CRONER_FIELDS = ['second', 'minute', 'hour', 'day', 'month', 'dayOfWeek', 'year'];
const NICKNAMES = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
const SHAPE = 'cron must have 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first';

/**
 * croner's message names the field in its own terms and may show a value it derived (`day: -1` for
 * a day-of-month of 0). The client gets its own text back, the field by its usual name and the
 * values that field allows.
 */
function explain(expression: string, error: unknown): string {
  const parts = expression.split(/\s+/);
  const fields = parts.length === 6 ? FIELDS : FIELDS.slice(1);
  const message = error instanceof Error ? error.message : String(error);
  const byName = /Invalid value for (\w+)/.exec(message)?.[1];
  const byEntry = /configuration entry (\d+)/.exec(message)?.[1];
  // croner numbers the entries of its 7-field form (seconds first): a 5-field expression starts at 1.
  const cronerIndex = byName !== undefined ? CRONER_FIELDS.indexOf(byName) : byEntry !== undefined ? Number(byEntry) : -1;
  const field = FIELDS[cronerIndex];
  const index = field ? fields.indexOf(field) : -1;
  if (field && index >= 0) {
    return `cron ${field.name} field ${JSON.stringify(parts[index])} is not valid (allowed: ${field.range}, with *, lists, ranges and steps)`;
  }
  return `cron ${JSON.stringify(expression)} is not a valid cron expression`;
}

function parse(expression: string, timezone: string): Cron {
  const trimmed = expression.trim();
  const count = trimmed === '' ? 0 : trimmed.split(/\s+/).length;
  if (trimmed.startsWith('@') ? !NICKNAMES.includes(trimmed.toLowerCase()) : count !== 5 && count !== 6) {
    throw errors.validation(trimmed.startsWith('@') ? `cron ${JSON.stringify(trimmed)} is not one of ${NICKNAMES.join(', ')}` : `${SHAPE}; got ${count}`);
  }
  try {
    // No callback: croner only computes dates, it schedules nothing.
    return new Cron(trimmed, { timezone, mode: '5-or-6-parts' });
  } catch (error) {
    throw errors.validation(explain(trimmed, error));
  }
}

/** The first run strictly after `after`, or null when the expression never fires again. */
export function nextRunAfter(expression: string, timezone: string, after: Date): Date | null {
  try {
    return new Cron(expression.trim(), { timezone, mode: '5-or-6-parts' }).nextRun(after);
  } catch {
    return null;
  }
}

/**
 * Parses a cron expression (5 fields, 6 with seconds first, or a nickname such as `@daily`;
 * evaluated in `timezone`, UTC by default)
 * and rejects one that fires more often than `minIntervalMinutes`. The gaps are checked over runs
 * sampled from now and from the start of each of the next 13 months, so patterns restricted to
 * certain days or months are caught too.
 */
export function validateCron(expression: string, timezone: string, minIntervalMinutes: number, now: Date): { nextRunAt: Date } {
  if (!isValidTimeZone(timezone)) throw errors.validation(`timezone "${timezone}" is not a known IANA time zone`);
  const cron = parse(expression, timezone);
  const minGapMs = minIntervalMinutes * 60_000;
  const starts = [now];
  for (let month = 1; month <= SAMPLE_MONTHS; month += 1) {
    starts.push(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + month, 1) - 1));
  }
  for (const start of starts) {
    const runs = cron.nextRuns(SAMPLE_RUNS, start);
    for (let i = 1; i < runs.length; i += 1) {
      const gap = (runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime();
      if (gap < minGapMs) {
        throw errors.validation(`cron fires more often than the minimum interval of ${minIntervalMinutes} minutes (the service runs daily-style schedules)`);
      }
    }
  }
  const nextRunAt = cron.nextRun(now);
  if (!nextRunAt) throw errors.validation('cron never fires');
  return { nextRunAt };
}
