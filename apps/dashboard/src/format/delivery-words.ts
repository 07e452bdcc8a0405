import type { Destination, DestinationDelivery, Schedule, TargetListUpload } from '@crawl/contracts';

/** Where a destination writes, as a user would type it: `s3://bucket/prefix` and the store when not AWS. */
export function destinationWhere(destination: Pick<Destination, 'bucket' | 'prefix' | 'endpoint' | 'region'>): string {
  const path = destination.prefix ? `s3://${destination.bucket}/${destination.prefix}` : `s3://${destination.bucket}`;
  return destination.endpoint ? `${path} at ${destination.endpoint}` : `${path} (AWS, ${destination.region})`;
}

/** How rows are written: `ndjson, gzip`. */
export function destinationFormatText(destination: Pick<Destination, 'format' | 'gzip'>): string {
  return destination.gzip ? `${destination.format}, gzip` : destination.format;
}

/** A delivery's outcome in one line: status, attempts, what was written or why it failed. */
export function deliveryText(delivery: DestinationDelivery): string {
  const attempts = `${delivery.attemptCount} attempt${delivery.attemptCount === 1 ? '' : 's'}`;
  if (delivery.status === 'delivered') {
    const rows = delivery.rows === null ? '' : `, ${delivery.rows.toLocaleString('en-US')} row${delivery.rows === 1 ? '' : 's'}`;
    return `delivered after ${attempts}${rows}`;
  }
  const error = delivery.lastError ? `: ${delivery.lastError}` : '';
  return `${delivery.status}, ${attempts}${error}`;
}

/** A schedule's monthly budget: what its runs reserved this month against the budget, and a pause's reason. */
export function scheduleBudgetText(schedule: Pick<Schedule, 'maxCreditsPerMonth' | 'budget' | 'pausedReason' | 'pausedUntil'>): string {
  const spent = schedule.budget.credits.toLocaleString('en-US');
  const base =
    schedule.maxCreditsPerMonth === null
      ? `no monthly budget (${spent} credits in ${schedule.budget.month})`
      : `${spent} of ${schedule.maxCreditsPerMonth.toLocaleString('en-US')} credits in ${schedule.budget.month}`;
  if (schedule.pausedReason !== 'budget_exhausted') return base;
  const until = schedule.pausedUntil ? ` until ${schedule.pausedUntil.slice(0, 10)}` : '';
  return `${base} · paused${until}: the next run would pass the monthly budget`;
}

/** An upload's counts in one line. */
export function uploadCountsText(upload: Pick<TargetListUpload, 'list'>): string {
  const { accepted, duplicates, rejected } = upload.list.counts;
  const n = (value: number) => value.toLocaleString('en-US');
  return `${n(accepted)} accepted, ${n(duplicates)} duplicate${duplicates === 1 ? '' : 's'}, ${n(rejected)} rejected`;
}
