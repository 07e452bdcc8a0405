import type { Collection, DocumentStore } from '@crawl/storage';
import { SCHEDULES_COLLECTION, type ScheduleDoc } from './schedule-repository.ts';

/** Why a schedule does not fire: its runs this month would pass its monthly credit budget. */
export const SCHEDULE_BUDGET_EXHAUSTED = 'SCHEDULE_BUDGET_EXHAUSTED';

/** `2026-03`: the calendar month (UTC) a time falls in, as budgets count them. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);
/** The first instant of the month after `at` (UTC): when a budget pause ends. */
export const nextMonthStart = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

/** A budget pause in force at `now` (it ends by itself at `pausedUntil`). */
export function isBudgetPaused(schedule: Pick<ScheduleDoc, 'pausedReason' | 'pausedUntil'>, now: Date): boolean {
  return schedule.pausedReason === 'budget_exhausted' && typeof schedule.pausedUntil === 'string' && schedule.pausedUntil > now.toISOString();
}

/** The credits a schedule's runs reserved in `month` (0 in a month not counted yet). */
export function creditsIn(schedule: Pick<ScheduleDoc, 'budgetUsage'>, month: string): number {
  return schedule.budgetUsage?.month === month ? schedule.budgetUsage.credits : 0;
}

/**
 * A schedule's monthly credit budget (`maxCreditsPerMonth`), counted on the schedule document as
 * monitors count theirs: each run takes its credits before its job is created, atomically, so two
 * runs at once never both pass the budget; a run whose job is not created gives them back.
 */
export class ScheduleBudgetRepository {
  readonly #schedules: Collection<ScheduleDoc>;

  constructor(store: DocumentStore) {
    this.#schedules = store.collection<ScheduleDoc>(SCHEDULES_COLLECTION);
  }

  /** Takes `credits` for `month` while they fit under `max` (a new month starts from 0). @returns false when they do not. */
  async take(id: string, month: string, credits: number, max: number | null): Promise<boolean> {
    await this.#schedules.updateOne({ _id: id, 'budgetUsage.month': { $ne: month } }, { $set: { budgetUsage: { month, credits: 0 } } });
    const filter =
      max === null ? { _id: id, 'budgetUsage.month': month } : { _id: id, 'budgetUsage.month': month, 'budgetUsage.credits': { $lte: max - credits } };
    return (await this.#schedules.updateOne(filter, { $inc: { 'budgetUsage.credits': credits } })) !== null;
  }

  /** Gives back (negative) or adds credits counted for `month`. */
  async adjust(id: string, month: string, credits: number): Promise<void> {
    if (credits === 0) return;
    await this.#schedules.updateOne({ _id: id, 'budgetUsage.month': month }, { $inc: { 'budgetUsage.credits': credits } });
  }

  /** Pauses the schedule until `until`, with why. @returns it, or null when it was paused already. */
  pause(id: string, error: { code: string; message: string; at: string }, until: string): Promise<ScheduleDoc | null> {
    return this.#schedules.updateOne(
      { _id: id, pausedReason: { $ne: 'budget_exhausted' } },
      { $set: { pausedReason: 'budget_exhausted', pausedUntil: until, lastError: error, updatedAt: error.at } },
    );
  }
}
