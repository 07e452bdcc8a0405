import type { ProductRecord, RecordLocation, RecordQuality, SearchRecord, UnchargedReason } from '@crawl/contracts';
import type { PageTries } from '../fetching/index.ts';
import { checkLocation } from './location-check.ts';
import { recordQuality } from './record-quality.ts';

/** A record as read from its page, before the checks add what they found. */
export type UncheckedRecord<R extends ProductRecord | SearchRecord> = Omit<R, 'quality' | 'location'>;

/** A record with what was checked of it: its quality, and its delivery location when one was asked for. */
export type CheckedRecord<R extends ProductRecord | SearchRecord = ProductRecord | SearchRecord> = UncheckedRecord<R> & {
  quality: RecordQuality;
  location?: RecordLocation;
};

/**
 * Adds `quality` (against the fields required of it) and, when the job asked for a delivery
 * location, `location` (against the page's `deliverTo`) to a record.
 */
export function checkRecord<R extends ProductRecord | SearchRecord>(
  record: UncheckedRecord<R>,
  required: readonly string[],
  zip: string | undefined,
): CheckedRecord<R> {
  const checked: CheckedRecord<R> = { ...record, quality: recordQuality(record, required) };
  if (zip !== undefined) checked.location = checkLocation(zip, record.deliverTo);
  return checked;
}

/** Why the records of a page (or a target) are not worth their price, if they are not. */
/** What the checks leave on a record of any kind. */
export type RecordChecks = { quality: RecordQuality; location?: RecordLocation };

export function shortfall(records: readonly RecordChecks[]): { reason: UnchargedReason; detail: string } | undefined {
  const unverified = records.find((r) => r.location !== undefined && !r.location.verified)?.location;
  if (unverified !== undefined) {
    const shown = unverified.observed === undefined ? 'no delivery location' : `"${unverified.observed}"`;
    return { reason: 'location_unverified', detail: `the page shows ${shown}, not postal code ${unverified.requested}` };
  }
  const missing = new Set(records.flatMap((r) => r.quality.missing));
  if (missing.size > 0) return { reason: 'partial', detail: `required fields missing: ${[...missing].join(', ')}` };
  return undefined;
}

/** Complete records are the page asked for; short ones get one more try on another session. */
export function judgeRecords(tries: PageTries, records: readonly RecordChecks[]): void {
  const short = shortfall(records);
  if (short !== undefined) tries.secondChance(short.detail);
}
