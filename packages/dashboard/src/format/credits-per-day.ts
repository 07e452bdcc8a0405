import type { Job } from '@crawl/sdk';

/**
 * Credits charged per UTC day of a month, from the jobs created in it: a finished job costs its
 * successful targets (failed and cancelled ones are refunded), an open one what it holds.
 */
export function creditsPerDay(jobs: readonly Job[], month: string): { days: number[]; credits: number[] } {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  const dayCount = new Date(Date.UTC(year, monthIndex, 0)).getUTCDate();
  const credits = new Array<number>(dayCount).fill(0);
  for (const job of jobs) {
    if (!job.createdAt.startsWith(month)) continue;
    const day = new Date(job.createdAt).getUTCDate();
    credits[day - 1]! += chargedFor(job);
  }
  const days = credits.map((_, index) => Date.UTC(year, monthIndex - 1, index + 1) / 1000);
  return { days, credits };
}

export function chargedFor(job: Job): number {
  if (job.status === 'queued' || job.status === 'running' || job.targets.length === 0) return job.creditsReserved;
  const perTarget = job.creditsReserved / job.targets.length;
  return Math.round(perTarget * job.targets.filter((target) => target.status === 'success').length);
}
