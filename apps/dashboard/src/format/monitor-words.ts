import type { Monitor, MonitorEvent } from '@crawl/sdk';
import { cronInWords } from './cron-words.ts';
import { productHref } from './product-values.ts';

const UNIT_WORDS = { m: ['minute', 'minutes'], h: ['hour', 'hours'], d: ['day', 'days'] } as const;

/** "Every 6 hours", "Every day", or a cron rule in words with its zone. */
export function scheduleInWords(monitor: Pick<Monitor, 'every' | 'cron' | 'timezone'>): string {
  const match = /^(\d+)([mhd])$/.exec(monitor.every ?? '');
  if (match) {
    const amount = Number(match[1]);
    const [one, many] = UNIT_WORDS[match[2] as keyof typeof UNIT_WORDS];
    return amount === 1 ? `Every ${one}` : `Every ${amount} ${many}`;
  }
  if (monitor.cron) {
    const words = cronInWords(monitor.cron, monitor.timezone ?? 'UTC');
    return 'words' in words ? words.words : `${monitor.cron} (${monitor.timezone ?? 'UTC'})`;
  }
  return 'No schedule';
}

/** "8 of 500 credits this month (4 per run)", without a budget "8 credits this month (4 per run)". */
export function creditsInWords(monitor: Pick<Monitor, 'credits' | 'maxCreditsPerMonth'>): string {
  const { used, perRun } = monitor.credits;
  const budget = monitor.maxCreditsPerMonth === null ? '' : ` of ${monitor.maxCreditsPerMonth.toLocaleString()}`;
  return `${used.toLocaleString()}${budget} credits this month (${perRun.toLocaleString()} per run)`;
}

/** Why a monitor is paused, or that it runs. */
export function statusInWords(monitor: Pick<Monitor, 'status' | 'pausedReason'>): string {
  if (monitor.status === 'active') return 'active';
  return monitor.pausedReason === 'budget_exhausted' ? 'paused: monthly budget used up' : 'paused';
}

/** Where an event's product page is: its storefront, and its delivery ZIP for a product monitor. */
export function eventProductHref(event: Pick<MonitorEvent, 'subject'>): string {
  const { subject } = event;
  return productHref(subject.asin, { domain: subject.marketplace, zip: subject.kind === 'product' ? subject.zip : null });
}
