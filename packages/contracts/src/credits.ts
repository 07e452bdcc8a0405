/** Credits per target, by job type (spec: 5 per keyword, 2 per ASIN or URL). */
export const CREDITS_PER_TARGET = { search: 5, details: 2 } as const;
export type JobType = keyof typeof CREDITS_PER_TARGET;
export const JOB_TYPES = ['search', 'details'] as const;
/** Display rate for top-ups: 1 currency unit buys 10,000 credits. */
export const CREDITS_PER_CURRENCY_UNIT = 10_000;
