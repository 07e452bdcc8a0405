import type { DailyCredits } from '@crawl/sdk';

/** The chart's series from the ledger's days: UTC midnight of each day (seconds) and the credits spent on it. */
export function creditsPerDay(daily: DailyCredits): { days: number[]; credits: number[]; spent: number } {
  const days = daily.days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
  const credits = daily.days.map((day) => day.spent);
  return { days, credits, spent: credits.reduce((sum, value) => sum + value, 0) };
}
