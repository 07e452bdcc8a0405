import { describe, expect, it } from 'vitest';
import { type QueueCounters, ThroughputMeter } from './throughput-meter.ts';

/** A meter on a hand-moved clock, reading whatever counters the test sets. */
function meterAt(start: QueueCounters) {
  let now = 0;
  let counters = start;
  const meter = new ThroughputMeter(async () => counters, { now: () => now });
  return {
    meter,
    at: (ms: number, next: QueueCounters) => {
      now = ms;
      counters = next;
      return meter.current();
    },
  };
}

describe('ThroughputMeter', () => {
  it('has no rate until two readings a second apart, then the growth between the oldest and newest', async () => {
    const m = meterAt({ processed: 0, active: 2 });
    expect(await m.at(0, { processed: 0, active: 2 })).toEqual({ perSecond: null, active: 2 });
    // Within a second the first reading stands: no new reading, no rate.
    expect(await m.at(500, { processed: 3, active: 2 })).toEqual({ perSecond: null, active: 2 });
    expect(await m.at(1_000, { processed: 4, active: 1 })).toEqual({ perSecond: 4, active: 1 });
    expect(await m.at(2_000, { processed: 10, active: 2 })).toEqual({ perSecond: 5, active: 2 });
  });

  it('does not count the time a backlog waited with nothing running', async () => {
    const m = meterAt({ processed: 0, active: 0 });
    await m.at(0, { processed: 0, active: 0 });
    await m.at(1_000, { processed: 0, active: 0 });
    // A worker starts: the idle readings before it are dropped, so one reading of work has no rate yet.
    expect(await m.at(2_000, { processed: 6, active: 1 })).toEqual({ perSecond: null, active: 1 });
    // 6 more in the next second: 6 per second, not 12 over the three seconds since the first reading.
    expect(await m.at(3_000, { processed: 12, active: 1 })).toEqual({ perSecond: 6, active: 1 });
  });

  it('keeps the window through a reading with nothing in flight when tasks finished since the last one', async () => {
    const m = meterAt({ processed: 0, active: 1 });
    await m.at(0, { processed: 0, active: 1 });
    await m.at(1_000, { processed: 4, active: 0 });
    expect(await m.at(2_000, { processed: 8, active: 1 })).toEqual({ perSecond: 4, active: 1 });
  });

  it('starts again when the counters go back (a restarted in-process queue), and drops readings older than the window', async () => {
    const m = meterAt({ processed: 50, active: 1 });
    await m.at(0, { processed: 50, active: 1 });
    expect(await m.at(1_000, { processed: 2, active: 1 })).toEqual({ perSecond: null, active: 1 });
    expect(await m.at(2_000, { processed: 5, active: 1 })).toEqual({ perSecond: 3, active: 1 });
    await m.at(60_000, { processed: 300, active: 1 });
    // A minute after the reading at 2 s, the one at 1 s has left the window: 300 over 60 s.
    expect(await m.at(62_000, { processed: 305, active: 1 })).toEqual({ perSecond: 5, active: 1 });
  });
});
