import { createHash } from 'node:crypto';
import type { MonitorRule, ObservedChange, ObservedSubject } from '@crawl/contracts';

// Names derived from what they stand for, so that a report applied twice (a worker's retry) or a
// confirmation decided twice (a lease taken over) writes the same event, not a second one.

const digest = (parts: readonly unknown[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

/** A rule by what it tests: editing its value makes it another rule; toggling `confirm` does not. */
export const ruleKey = (rule: MonitorRule): string => digest([rule.field, rule.op, rule.value ?? null]).slice(0, 16);

/** A product at its delivery location, or a product under a keyword. */
export const subjectKey = (subject: ObservedSubject): string =>
  subject.kind === 'product'
    ? digest(['product', subject.marketplace, subject.asin, subject.zip]).slice(0, 22)
    : digest(['rank', subject.marketplace, subject.keyword, subject.asin]).slice(0, 22);

/** The `monitor.triggered` event of a rule for one change (the change's row names the check). */
export const monitorEventId = (monitorId: string, rule: MonitorRule, change: ObservedChange): string =>
  `mev_${digest([monitorId, ruleKey(rule), subjectKey(change.subject), change.field, change.resultId]).slice(0, 26)}`;

/** What a cooldown silences: one rule of one monitor for one subject's field (each best-sellers category on its own). */
export const cooldownId = (monitorId: string, rule: MonitorRule, change: ObservedChange): string =>
  `${monitorId}:${ruleKey(rule)}:${digest([subjectKey(change.subject), change.field]).slice(0, 22)}`;

/** The row a change was read from names its target and record: `<jobId>:<targetIndex>:<seq>` (no `seq` for an absence). */
function rowParts(change: ObservedChange): { targetIndex?: number; seq?: number } {
  const [, index, seq] = change.resultId.split(':');
  const whole = (text: string | undefined): number | undefined => (text !== undefined && /^\d{1,9}$/.test(text) ? Number(text) : undefined);
  const targetIndex = whole(index);
  const record = whole(seq);
  return { ...(targetIndex !== undefined ? { targetIndex } : {}), ...(record !== undefined ? { seq: record } : {}) };
}

export const targetIndexOf = (change: ObservedChange): number | undefined => rowParts(change).targetIndex;

/** The record a change was read from, by its place among the target's records; none for an absence. */
export const recordSeqOf = (change: ObservedChange): number | undefined => rowParts(change).seq;
