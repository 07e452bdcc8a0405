import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoTimeOncePerMillisecond } from './iso-time.ts';

describe('isoTimeOncePerMillisecond', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes what pino's isoTime writes, and a new time when the clock moves", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-23T01:02:03.004Z'));
    expect(isoTimeOncePerMillisecond()).toBe(pino.stdTimeFunctions.isoTime());
    expect(isoTimeOncePerMillisecond()).toBe(',"time":"2026-11-23T01:02:03.004Z"');
    vi.setSystemTime(new Date('2026-11-23T01:02:03.005Z'));
    expect(isoTimeOncePerMillisecond()).toBe(',"time":"2026-11-23T01:02:03.005Z"');
  });
});
