import { describe, expect, it } from 'vitest';
import { ManualClock } from './clock.ts';

describe('ManualClock', () => {
  it('fires the timeouts that come due as it advances, earliest first, at their own time', () => {
    const clock = new ManualClock('2026-03-02T08:00:00.000Z');
    const fired: string[] = [];
    const at = () => clock.now().toISOString().slice(17, 23);
    clock.setTimeout(() => fired.push(`b@${at()}`), 2_000);
    clock.setTimeout(() => {
      fired.push(`a@${at()}`);
      clock.setTimeout(() => fired.push(`nested@${at()}`), 500);
    }, 1_000);
    clock.setTimeout(() => fired.push(`b2@${at()}`), 2_000);
    expect(clock.pending).toBe(3);
    expect(clock.nextTimerInMs()).toBe(1_000);
    clock.advance(1_999);
    expect(fired).toEqual(['a@01.000', 'nested@01.500']);
    expect(clock.now().toISOString()).toBe('2026-03-02T08:00:01.999Z');
    clock.advance(1);
    // Of two timeouts due at once, the one set first fires first.
    expect(fired).toEqual(['a@01.000', 'nested@01.500', 'b@02.000', 'b2@02.000']);
    expect(clock.pending).toBe(0);
    expect(clock.nextTimerInMs()).toBeUndefined();
  });

  it('cancels timeouts, and `set` jumps without firing any', () => {
    const clock = new ManualClock('2026-03-02T08:00:00.000Z');
    const fired: number[] = [];
    const cancel = clock.setTimeout(() => fired.push(1), 1_000);
    clock.setTimeout(() => fired.push(2), 1_000);
    cancel();
    clock.set('2026-03-02T09:00:00.000Z');
    expect(fired).toEqual([]);
    clock.advance(0);
    // A timeout that fell due during the jump fires at the current time, not in the past.
    expect(fired).toEqual([2]);
    expect(clock.now().toISOString()).toBe('2026-03-02T09:00:00.000Z');
  });
});
