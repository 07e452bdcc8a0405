import type { ObservedChange, ObservedSubject, TrackedValue } from '@crawl/contracts';
import { storedKeyOf } from './observed-subjects.ts';
import type { CarriedValues } from './tracked-values.ts';

/** Tracked values as a change point stores them: by stored key (see `storedKeyOf`). */
export type StoredValues = { [storedKey: string]: TrackedValue };

/** What every change point holds, wherever it is kept: its values from `firstSeenAt` to `lastSeenAt`, seen `checks` times. */
export interface ChangePoint {
  asin: string;
  /** 0 for a subject's first change point, then one more per change. */
  seq: number;
  values: StoredValues;
  firstSeenAt: string;
  lastSeenAt: string;
  checks: number;
}

/** One subject's values as one check carried them, with what the check was. */
export interface CheckedValues {
  subject: ObservedSubject;
  values: CarriedValues;
  jobId: string;
  resultId: string;
}

/** The id of a subject's closed change point `seq` (its open one is kept apart: the head). */
export const archiveIdOf = (subjectId: string, seq: number): string => `${subjectId}:${String(seq).padStart(10, '0')}`;

/** A check is never dated before the last check of its subject (clocks of replicas differ): change points stay in time order. */
export const notBefore = (at: string, lastSeenAt: string): string => (at < lastSeenAt ? lastSeenAt : at);

export function mergeValues(stored: StoredValues, carried: CarriedValues): StoredValues {
  const values: StoredValues = { ...stored };
  for (const [field, value] of carried) values[storedKeyOf(field)] = value;
  return values;
}

/** The carried values that differ from what `before` holds; a field `before` never had is no change. */
export function changesOf(check: CheckedValues, before: Pick<ChangePoint, 'values' | 'lastSeenAt'>, observedAt: string): ObservedChange[] {
  const changes: ObservedChange[] = [];
  for (const [field, current] of check.values) {
    const key = storedKeyOf(field);
    if (!Object.hasOwn(before.values, key)) continue;
    const previous = before.values[key] as TrackedValue;
    if (previous === current) continue;
    changes.push({
      subject: check.subject,
      field,
      previous,
      current,
      previousObservedAt: before.lastSeenAt,
      observedAt,
      jobId: check.jobId,
      resultId: check.resultId,
    });
  }
  return changes;
}

/**
 * Change points in (subject, seq) order with two of one seq reduced to one: a closed copy and the
 * head of the same seq exist for a moment while a change is written, and the head is the later.
 */
export function dedupe<P extends ChangePoint & { head?: boolean }>(points: readonly P[], sameSubject: (a: P, b: P) => boolean): P[] {
  const out: P[] = [];
  for (const point of points) {
    const last = out[out.length - 1];
    if (last && sameSubject(last, point) && last.seq === point.seq) {
      if (point.head) out[out.length - 1] = point;
      continue;
    }
    out.push(point);
  }
  return out;
}
