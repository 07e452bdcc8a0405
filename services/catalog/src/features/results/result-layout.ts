import { CATALOG_LIMITS } from '@crawl/contracts';
import { errors } from '@crawl/errors';

/**
 * Where a result row sits in its job's result set: one integer, `targetIndex * POSITION_STRIDE +
 * seq`, so "by target, then item order within the target" is plain numeric order and a page is
 * one range of the `(jobId, position)` index. A report carries at most 5000 items, far below the
 * stride; the largest position (1000 targets) stays a small, exact integer on every backend.
 */
export const POSITION_STRIDE = 1_000_000;
const MAX_POSITION = (CATALOG_LIMITS.maxTargetsPerJob + 1) * POSITION_STRIDE;

export function positionOf(targetIndex: number, seq: number): number {
  if (!Number.isInteger(targetIndex) || targetIndex < 0 || !Number.isInteger(seq) || seq < 0 || seq >= POSITION_STRIDE) {
    throw new RangeError(`No result position for target ${targetIndex}, item ${seq}`);
  }
  return targetIndex * POSITION_STRIDE + seq;
}

/** The first position after every row of `targetIndex`. */
export const targetEnd = (targetIndex: number): number => (targetIndex + 1) * POSITION_STRIDE;

export function splitPosition(position: number): { targetIndex: number; seq: number } {
  return { targetIndex: Math.floor(position / POSITION_STRIDE), seq: position % POSITION_STRIDE };
}

/** Cursors are opaque to clients: base64url of the next row's position. */
export function encodeCursor(position: number): string {
  return Buffer.from(String(position), 'utf8').toString('base64url');
}

/** @throws VALIDATION_ERROR (400) for anything `encodeCursor` did not produce. */
export function decodeCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]{1,32}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const position = /^(0|[1-9]\d{0,15})$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(position) || position >= MAX_POSITION || encodeCursor(position) !== cursor) {
    const message = 'cursor is not a cursor returned by this endpoint';
    throw errors.validation(message, [message]);
  }
  return position;
}

/** What page math needs from a job: its maintained total and each reported target's count. */
export interface ResultLayoutSource {
  resultCount: number;
  targets: ReadonlyArray<{ resultCount?: number | undefined }>;
}

/** One stretch of a page: rows `[fromSeq, toSeq)` of one target. */
export interface PageSegment {
  targetIndex: number;
  fromSeq: number;
  toSeq: number;
}

export interface PagePlan {
  /** Rows of the job's result set before the page (its offset). */
  offset: number;
  segments: PageSegment[];
  /** The position of the first row after the page, or null when the page reaches the end. */
  next: number | null;
}

/**
 * Rows of a target that count: those of targets whose report the job recorded (`resultCount`).
 * Rows of a target whose report is still being written, or of a report that lost a race, are
 * not part of the result set yet, so pages and totals agree with the job document.
 */
const countsOf = (job: ResultLayoutSource): number[] => job.targets.map((target) => target.resultCount ?? 0);

function plan(counts: readonly number[], offset: number, targetIndex: number, seq: number, size: number): PagePlan {
  const segments: PageSegment[] = [];
  let remaining = size;
  let index = targetIndex;
  let from = seq;
  for (; index < counts.length; index += 1, from = 0) {
    const count = counts[index] ?? 0;
    if (from >= count) continue;
    if (remaining === 0) return { offset, segments, next: positionOf(index, from) };
    const to = Math.min(count, from + remaining);
    segments.push({ targetIndex: index, fromSeq: from, toSeq: to });
    remaining -= to - from;
    if (to < count) return { offset, segments, next: positionOf(index, to) };
  }
  return { offset, segments, next: null };
}

/** Page `page` (1-based) of `size` rows, located from the per-target counts (no row is read). */
export function planPage(job: ResultLayoutSource, page: number, size: number): PagePlan {
  const counts = countsOf(job);
  const offset = (page - 1) * size;
  let before = 0;
  for (let index = 0; index < counts.length; index += 1) {
    const count = counts[index] ?? 0;
    if (before + count > offset) return plan(counts, offset, index, offset - before, size);
    before += count;
  }
  return { offset, segments: [], next: null };
}

/** The `size` rows from `position` on (a cursor), and how many rows come before them. */
export function planFrom(job: ResultLayoutSource, position: number, size: number): PagePlan {
  const counts = countsOf(job);
  const { targetIndex, seq } = splitPosition(position);
  let offset = 0;
  for (let index = 0; index < Math.min(targetIndex, counts.length); index += 1) offset += counts[index] ?? 0;
  offset += Math.min(seq, counts[targetIndex] ?? 0);
  return plan(counts, offset, targetIndex, seq, size);
}
