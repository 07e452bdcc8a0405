import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A jittered, growing pause after losing a race for one document: 0.5–1.5 ms after the first
 * loss, at most 10–30 ms, so racing writers spread out instead of retrying in lockstep.
 */
export function backOff(losses: number): Promise<void> {
  const ms = Math.min(20, 1 + losses) * (0.5 + Math.random());
  return sleep(ms);
}
