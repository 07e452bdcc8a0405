import { Cron } from 'croner';
import { toString as describeCron } from 'cronstrue';

/**
 * A cron rule in words with its zone ("At 06:00, every day (UTC)"), or why it cannot be read. The
 * API stays the judge of what it accepts (minimum interval included); this is the preview.
 */
export function cronInWords(cron: string, timezone = 'UTC'): { words: string } | { error: string } {
  try {
    return { words: `${describeCron(cron.trim(), { use24HourTimeFormat: true, throwExceptionOnParseError: true, verbose: true })} (${timezone})` };
  } catch (error) {
    return { error: typeof error === 'string' ? error : error instanceof Error ? error.message : 'not a cron expression' };
  }
}

/** The next `count` times the rule fires in its zone; none when it cannot be read. */
export function nextRuns(cron: string, timezone = 'UTC', count = 3, from: Date = new Date()): Date[] {
  try {
    return new Cron(cron.trim(), { timezone, paused: true }).nextRuns(count, from);
  } catch {
    return [];
  }
}
