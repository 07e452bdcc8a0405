import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, planFrom, planPage, positionOf, POSITION_STRIDE, splitPosition } from './result-layout.ts';

const layout = (counts: Array<number | undefined>) => ({
  resultCount: counts.reduce<number>((sum, c) => sum + (c ?? 0), 0),
  targets: counts.map((resultCount) => (resultCount === undefined ? {} : { resultCount })),
});

describe('result positions', () => {
  it('orders by target, then item, numerically', () => {
    expect(positionOf(0, 4999)).toBeLessThan(positionOf(1, 0));
    expect(positionOf(2, 0)).toBeLessThan(positionOf(10, 0));
    expect(splitPosition(positionOf(1000, 4999))).toEqual({ targetIndex: 1000, seq: 4999 });
    expect(Number.isSafeInteger(positionOf(1000, POSITION_STRIDE - 1))).toBe(true);
    expect(() => positionOf(0, POSITION_STRIDE)).toThrow(RangeError);
    expect(() => positionOf(-1, 0)).toThrow(RangeError);
  });

  it('round-trips cursors and rejects anything else with a 400', () => {
    for (const position of [0, 7, positionOf(3, 12), positionOf(1000, 4999)]) expect(decodeCursor(encodeCursor(position))).toBe(position);
    for (const bad of [
      '',
      '!!',
      'abc',
      Buffer.from('01').toString('base64url'),
      Buffer.from('-1').toString('base64url'),
      Buffer.from('1e3').toString('base64url'),
      `${encodeCursor(5)}=`,
      encodeCursor(positionOf(1001, 0)),
      Buffer.from('9'.repeat(17)).toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad), bad).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR', statusCode: 400 }));
    }
  });
});

describe('page plans', () => {
  it('locates a page from the per-target counts, across targets and past empty ones', () => {
    const job = layout([3, 0, undefined, 4, 2]);
    expect(planPage(job, 1, 2)).toEqual({ offset: 0, segments: [{ targetIndex: 0, fromSeq: 0, toSeq: 2 }], next: positionOf(0, 2) });
    expect(planPage(job, 2, 2)).toEqual({
      offset: 2,
      segments: [
        { targetIndex: 0, fromSeq: 2, toSeq: 3 },
        { targetIndex: 3, fromSeq: 0, toSeq: 1 },
      ],
      next: positionOf(3, 1),
    });
    // A page ending exactly at a target's end points at the next target with results.
    expect(planPage(job, 1, 3).next).toBe(positionOf(3, 0));
    expect(planPage(job, 3, 3)).toEqual({
      offset: 6,
      segments: [
        { targetIndex: 3, fromSeq: 3, toSeq: 4 },
        { targetIndex: 4, fromSeq: 0, toSeq: 2 },
      ],
      next: null,
    });
    expect(planPage(job, 4, 3)).toEqual({ offset: 9, segments: [], next: null });
    expect(planPage(layout([]), 1, 50)).toEqual({ offset: 0, segments: [], next: null });
  });

  it('continues from a cursor and counts the rows before it', () => {
    const job = layout([3, 0, undefined, 4, 2]);
    expect(planFrom(job, positionOf(0, 2), 2)).toEqual(planPage(job, 2, 2));
    // A cursor past a target's rows (it was rewritten shorter) moves on to the next target.
    expect(planFrom(job, positionOf(0, 7), 2)).toEqual({ offset: 3, segments: [{ targetIndex: 3, fromSeq: 0, toSeq: 2 }], next: positionOf(3, 2) });
    expect(planFrom(job, positionOf(2, 0), 10)).toEqual({
      offset: 3,
      segments: [
        { targetIndex: 3, fromSeq: 0, toSeq: 4 },
        { targetIndex: 4, fromSeq: 0, toSeq: 2 },
      ],
      next: null,
    });
    expect(planFrom(job, positionOf(4, 2), 10)).toEqual({ offset: 9, segments: [], next: null });
    expect(planFrom(job, positionOf(900, 0), 10)).toEqual({ offset: 9, segments: [], next: null });
  });

  it('walks every row exactly once by cursor, whatever the page size', () => {
    const counts = [5, 0, 1, 7, undefined, 3, 0, 12];
    const job = layout(counts);
    const expected = counts.flatMap((c, t) => Array.from({ length: c ?? 0 }, (_, s) => positionOf(t, s)));
    for (const size of [1, 2, 5, 13, 100]) {
      const seen: number[] = [];
      let plan = planPage(job, 1, size);
      for (;;) {
        for (const segment of plan.segments) for (let s = segment.fromSeq; s < segment.toSeq; s += 1) seen.push(positionOf(segment.targetIndex, s));
        if (plan.next === null) break;
        plan = planFrom(job, plan.next, size);
        expect(plan.offset).toBe(seen.length);
      }
      expect(seen).toEqual(expected);
    }
  });
});
