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

function parse(expression: string, timezone: string): Cron {
  try {
    // No callback: croner only computes dates, it schedules nothing.
    return new Cron(expression.trim(), { timezone, mode: '5-or-6-parts' });
  } catch (error) {
    throw errors.validation(`cron is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`);
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
 * Parses a cron expression (5 fields, or 6 with seconds; evaluated in `timezone`, UTC by default)
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
