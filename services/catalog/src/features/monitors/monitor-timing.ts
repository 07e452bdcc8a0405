import { nextRunAfter } from '../schedules/index.ts';
import type { MonitorDefinition } from './monitor-model.ts';

const MINUTES = { m: 1, h: 60, d: 24 * 60 } as const;

/** `15m`, `6h`, `1d` in minutes; undefined for anything else (the schemas' pattern has already said so). */
export function durationMinutes(text: string): number | undefined {
  const match = /^(\d{1,6})([mhd])$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * MINUTES[match[2] as keyof typeof MINUTES];
}

const intervalMs = (every: string): number => (durationMinutes(every) ?? 0) * 60_000;

type Timing = Pick<MonitorDefinition, 'every' | 'cron' | 'timezone'>;

/**
 * When a monitor that starts now (created, resumed, or back from a budget pause) runs first: an
 * interval monitor at once (its first run is the baseline later runs are compared with), a cron
 * monitor at its next time.
 */
export function firstRunAt(timing: Timing, now: Date): Date | null {
  if (timing.every !== null) return now;
  return nextRunAfter(timing.cron ?? '', timing.timezone ?? 'UTC', now);
}

/** After a change of its interval or cron rule: the next time from now, not at once. */
export function runAfterChange(timing: Timing, now: Date): Date | null {
  if (timing.every !== null) return new Date(now.getTime() + intervalMs(timing.every));
  return nextRunAfter(timing.cron ?? '', timing.timezone ?? 'UTC', now);
}

/**
 * The run after the one claimed now, which was due at `due`. An interval keeps its rhythm, but
 * runs missed while nothing ran (downtime) are not made up: the next is one interval from now.
 */
export function nextRunAfterClaim(timing: Timing, due: string, now: Date): Date | null {
  if (timing.every === null) return nextRunAfter(timing.cron ?? '', timing.timezone ?? 'UTC', now);
  const step = intervalMs(timing.every);
  const next = Date.parse(due) + step;
  return new Date(next > now.getTime() ? next : now.getTime() + step);
}
