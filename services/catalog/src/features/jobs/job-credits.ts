import { CREDITS_PER_TARGET } from '@crawl/contracts';
import { AppError } from '@crawl/errors';
import type { PreparedJob } from './job-input.ts';

/** What billing reserves for a prepared job: its distinct targets × the units each holds × the type's price. */
export function creditsToReserve(prepared: Pick<PreparedJob, 'type' | 'targets' | 'unitsPerTarget'>): number {
  return prepared.targets.length * prepared.unitsPerTarget * CREDITS_PER_TARGET[prepared.type];
}

/**
 * A create body's `maxCredits` refuses a job that would reserve more (402, as a balance too low
 * is refused), before anything is reserved or stored.
 */
export function assertWithinMaxCredits(credits: number, maxCredits: number | undefined, field = 'maxCredits'): void {
  if (maxCredits === undefined || credits <= maxCredits) return;
  throw new AppError('INSUFFICIENT_CREDITS', `This job would reserve ${credits} credits, more than ${field} ${maxCredits}`, 402, [
    { reason: 'MAX_CREDITS_EXCEEDED', credits, maxCredits },
  ]);
}
