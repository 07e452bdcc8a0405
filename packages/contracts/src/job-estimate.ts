import { Type, type Static } from '@sinclair/typebox';
import { UsageLimits, UsageUsed } from './billing.ts';
import { JobTypeSchema } from './catalog.ts';

/** The monthly limits a job counts against, and what it would do to them (docs/catalog.md, Estimates). */
export const JobEstimateQuota = Type.Object(
  {
    limits: UsageLimits,
    used: UsageUsed,
    remaining: UsageLimits,
    exceedsJobs: Type.Boolean({ description: 'True when one more job passes `jobsPerMonth` this month (the create answers 403).' }),
    exceedsTargets: Type.Boolean({ description: "True when the job's targets pass `targetsPerMonth` this month (the create answers 403)." }),
  },
  { description: "The organization's monthly job and target limits as billing counts them now." },
);
export type JobEstimateQuota = Static<typeof JobEstimateQuota>;

/** Where the job would wait, had it been created now. */
export const JobEstimateQueue = Type.Object(
  {
    position: Type.Integer({ minimum: 1, description: "The place the job would take among its organization's jobs with targets still waiting." }),
    targetsAhead: Type.Integer({
      minimum: 0,
      description: 'Tasks of every organization waiting now: at most this many are handed out before its first target.',
    }),
    etaSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description:
        'Estimated seconds until its last target has finished, from the tasks waiting and the measured throughput; null until throughput is measured.',
    }),
  },
  { description: 'An estimate: other jobs created meanwhile and the fair dispatcher move it.' },
);
export type JobEstimateQueue = Static<typeof JobEstimateQueue>;

/** What `POST /projects/:projectId/jobs` would do with the same body, with nothing created or reserved. */
export const JobEstimate = Type.Object(
  {
    type: JobTypeSchema,
    targetCount: Type.Integer({ minimum: 1, description: 'Distinct targets, after duplicates are removed as the create removes them.' }),
    unitsPerTarget: Type.Integer({ minimum: 1, description: 'Billable units held per target (pages of search and category, pages of reviews or offers).' }),
    creditsPerUnit: Type.Integer({ minimum: 1 }),
    credits: Type.Integer({ minimum: 0, description: 'Credits the create would reserve: targetCount × unitsPerTarget × creditsPerUnit.' }),
    billedPerPageFetched: Type.Boolean({
      description: 'True for reviews and offers: `credits` is a ceiling, the settlement charges only the pages that yielded records.',
    }),
    maxCredits: Type.Optional(Type.Integer({ minimum: 1, description: 'The `maxCredits` of the body, when given.' })),
    withinMaxCredits: Type.Boolean({ description: 'False when `credits` passes `maxCredits` (the create answers 402); true without `maxCredits`.' }),
    balance: Type.Object({
      available: Type.Integer({ minimum: 0 }),
      reserved: Type.Integer({ minimum: 0 }),
      sufficient: Type.Boolean({ description: 'True when `available` covers `credits` (otherwise the create answers 402).' }),
    }),
    quota: JobEstimateQuota,
    queue: JobEstimateQueue,
  },
  { $id: 'JobEstimate' },
);
export type JobEstimate = Static<typeof JobEstimate>;
