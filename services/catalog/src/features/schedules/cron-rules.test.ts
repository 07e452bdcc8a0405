import { AppError } from '@crawl/errors';
import { describe, expect, it } from 'vitest';
import { nextRunAfter, validateCron } from './cron-rules.ts';

const now = new Date('2026-03-02T08:00:00.000Z');

describe('cron rules', () => {
  it.each(['0 6 * * *', '30 2 * * 1', '0 0 1 * *', '0 */2 * * *', '0 9,17 * * *', '0 0 6 * * *'])('accepts %s', (cron) => {
    expect(validateCron(cron, 'UTC', 60, now).nextRunAt.getTime()).toBeGreaterThan(now.getTime());
  });

  it.each([
    ['every minute', '* * * * *'],
    ['every 5 minutes', '*/5 * * * *'],
    ['every second', '* * * * * *'],
    ['twice an hour', '0,30 * * * *'],
    ['every minute of one hour', '* 6 * * *'],
    ['every minute on Sundays only', '* * * * 0'],
    ['every 10 minutes in December', '*/10 * * 12 *'],
  ])('rejects %s (more often than the minimum interval)', (_label, cron) => {
    expect(() => validateCron(cron, 'UTC', 60, now)).toThrow(/minimum interval/);
  });

  it.each(['not a cron', '61 * * * *', '0 25 * * *', '', '0 6 * *'])('rejects the malformed expression %j with a validation error', (cron) => {
    try {
      validateCron(cron, 'UTC', 60, now);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('VALIDATION_ERROR');
    }
  });

  it('rejects unknown time zones', () => {
    expect(() => validateCron('0 6 * * *', 'Mars/Olympus', 60, now)).toThrow(/time zone/);
  });

  it('a larger minimum interval rejects hourly schedules', () => {
    expect(() => validateCron('0 * * * *', 'UTC', 24 * 60 - 120, now)).toThrow(/minimum interval/);
    expect(validateCron('0 6 * * *', 'UTC', 24 * 60 - 120, now).nextRunAt.toISOString()).toBe('2026-03-03T06:00:00.000Z');
  });

  it('computes the next run strictly after a time', () => {
    expect(nextRunAfter('0 6 * * *', 'UTC', new Date('2026-03-03T06:00:00.000Z'))?.toISOString()).toBe('2026-03-04T06:00:00.000Z');
  });
});
