import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';
import { JOB_TYPES } from './credits.ts';
import { MAX_AGE_PATTERN } from './page-cache.ts';
import { MAX_REQUIRED_FIELDS, REQUIRABLE_FIELDS } from './record-fields.ts';
import { ResultRecord } from './records.ts';
import { BlockKind, TargetCharges, TargetCoverage, UnchargedReason } from './target-outcome.ts';

/** Limits of the catalog API (documented in docs/catalog.md). */
export const CATALOG_LIMITS = {
  projectNameMaxLength: 120,
  maxTargetsPerJob: 1000,
  targetMaxLength: 2048,
  /** Serialized JSON size of a job's `config`. */
  configMaxBytes: 4096,
  configMaxKeys: 32,
  maxSearchPages: 5,
  /** Reviews per reviews target: default and most (`config.maxReviews`). */
  defaultMaxReviews: 100,
  maxReviews: 5000,
  /** Pages of offers a target reads (10 offers a page). */
  maxOfferPages: 10,
  listDefaultLimit: 20,
  listMaxLimit: 100,
  resultsDefaultPageSize: 50,
  resultsMaxPageSize: 200,
  cronMaxLength: 120,
  /** Schedules may not fire more often than this (the service targets daily-style schedules). */
  scheduleMinIntervalMinutes: 60,
} as const;

/** The job types (docs/catalog.md, "Job types and prices"): one page kind each. */
export const JobTypeSchema = Type.Union(
  JOB_TYPES.map((type) => Type.Literal(type)),
  { description: 'The kind of page the job crawls: search, details (product), reviews, offers, bestsellers, category, seller or autocomplete.' },
);
export const JobStatus = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('completed'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);
export type JobStatus = Static<typeof JobStatus>;
export const TERMINAL_JOB_STATUSES = ['completed', 'failed', 'cancelled'] as const;
export const ACTIVE_JOB_STATUSES = ['queued', 'running'] as const;

export const TargetStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('running'),
  Type.Literal('success'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);
export type TargetStatus = Static<typeof TargetStatus>;
export const TERMINAL_TARGET_STATUSES = ['success', 'failed', 'cancelled'] as const;
export const OPEN_TARGET_STATUSES = ['pending', 'running'] as const;

/** Any JSON object; the keys are not fixed. */
const OpenObject = (description?: string) => Type.Object({}, { additionalProperties: true, ...(description ? { description } : {}) });

// ---------------------------------------------------------------------------------------------
// Projects

export const Project = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    organizationId: Type.String(),
    archived: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Project' },
);
export type Project = Static<typeof Project>;

const ProjectName = Type.String({ minLength: 1, maxLength: CATALOG_LIMITS.projectNameMaxLength, description: 'Trimmed; must not be blank.' });

export const CreateProjectBody = Type.Object({ name: ProjectName }, { additionalProperties: false });
export type CreateProjectBody = Static<typeof CreateProjectBody>;

export const UpdateProjectBody = Type.Object(
  { name: Type.Optional(ProjectName), archived: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateProjectBody = Static<typeof UpdateProjectBody>;

/** `limit` (default 20, capped at 100) and `offset`, as every list takes them. */
const ListLimit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 1_000_000, default: CATALOG_LIMITS.listDefaultLimit, description: `Capped at ${CATALOG_LIMITS.listMaxLimit}.` }),
);
const ListOffset = Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }));

export const ListProjectsQuery = Type.Object(
  { archived: Type.Optional(Type.Boolean()), limit: ListLimit, offset: ListOffset },
  { additionalProperties: false },
);
export type ListProjectsQuery = Static<typeof ListProjectsQuery>;

export const ProjectIdParams = Type.Object({ projectId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type ProjectIdParams = Static<typeof ProjectIdParams>;

// ---------------------------------------------------------------------------------------------
// Jobs

/** BCP 47-ish language tag: `en`, `de-DE`, `zh-Hant-TW`. */
export const LanguageTag = Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', maxLength: 35, examples: ['en-US'] });

const describeRequirable = (): string =>
  Object.entries(REQUIRABLE_FIELDS)
    .map(([type, fields]) => `${type} jobs ${fields.join(', ')}`)
    .join('; ');

export const JobConfig = Type.Object(
  {
    lang: Type.Optional(
      Type.String({
        pattern: LanguageTag.pattern,
        maxLength: LanguageTag.maxLength,
        examples: ['en-GB'],
        description:
          "The storefront language (`en`, `en-GB`): used where the storefront offers it; with `domain`, checked against that storefront's languages at create.",
      }),
    ),
    domain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        examples: ['amazon.de'],
        description: 'The storefront to crawl, e.g. `amazon.co.uk`; default amazon.com. Must be a supported marketplace (checked at create, 400 otherwise).',
      }),
    ),
    pages: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CATALOG_LIMITS.maxSearchPages,
        description: 'Result pages per keyword (search jobs) or per category (category jobs); each page is billed.',
      }),
    ),
    sort: Type.Optional(
      Type.Union(
        [
          Type.Literal('featured'),
          Type.Literal('price_asc'),
          Type.Literal('price_desc'),
          Type.Literal('avg_review'),
          Type.Literal('newest'),
          Type.Literal('recent'),
          Type.Literal('helpful'),
        ],
        {
          description:
            'Order of the results as the storefront sorts them: search and category jobs featured (default), price_asc, price_desc, avg_review, newest; reviews jobs recent or helpful (default).',
        },
      ),
    ),
    stars: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 5 }), {
        minItems: 1,
        maxItems: 5,
        uniqueItems: true,
        description: 'Reviews jobs: only reviews with these star ratings (default all).',
      }),
    ),
    verifiedOnly: Type.Optional(Type.Boolean({ description: 'Reviews jobs: only reviews of verified purchases.' })),
    maxReviews: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: CATALOG_LIMITS.maxReviews,
        description: `Reviews jobs: reviews per target, default ${CATALOG_LIMITS.defaultMaxReviews}.`,
      }),
    ),
    since: Type.Optional(
      Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-01-01'], description: 'Reviews jobs: only reviews written on or after this day.' }),
    ),
    condition: Type.Optional(
      Type.Union([Type.Literal('new'), Type.Literal('used'), Type.Literal('collectible'), Type.Literal('refurbished')], {
        description: 'Offers jobs: only offers in this condition (default all).',
      }),
    ),
    list: Type.Optional(
      Type.Union([Type.Literal('bestsellers'), Type.Literal('new-releases'), Type.Literal('movers-and-shakers')], {
        description: 'Bestsellers jobs: which ranking (default bestsellers).',
      }),
    ),
    deliveryZip: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 10,
        pattern: '^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$',
        examples: ['10115'],
        description:
          "The delivery location (a postal code of the storefront, checked at create); each record's `deliverTo` says the location the page was shown for.",
      }),
    ),
    destinationId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "A destination of the job's project (docs/destinations.md): when the job ends, its results are written there as parts and a manifest. Checked at create (and when a schedule is created or changed): one the organization does not have, or one of another project, is a 400 naming it. A destination deleted after the create shows as a failed delivery on the job.",
      }),
    ),
    maxAge: Type.Optional(
      Type.String({
        pattern: MAX_AGE_PATTERN,
        examples: ['6h'],
        description:
          'Details and search jobs: a target fetched within this age (`30m`, `6h`, `1d`; at most 30d) for the same storefront, target, pages, sort, delivery ZIP and language is answered from the shared page cache at the cached price; its records carry `cachedAt`.',
      }),
    ),
    require: Type.Optional(
      // Items are checked by the service, not the schema: the allowed names depend on the job type,
      // and a wrong entry is answered with the names the job's record has (docs/catalog.md).
      Type.Array(Type.Unsafe<string>(Type.Unknown({ description: `A field name of the job's record: ${describeRequirable()}.` })), {
        examples: [['price', 'rating']],
        description: `Record fields the job needs (ProductRecord fields for details jobs, SearchRecord fields for search jobs; docs/data.md), at most ${MAX_REQUIRED_FIELDS}, each once. A target whose records lack one of them still delivers its records but is not charged (\`uncharged: "partial"\`).`,
      }),
    ),
  },
  {
    additionalProperties: true,
    maxProperties: CATALOG_LIMITS.configMaxKeys,
    description: `Extra keys are kept. At most ${CATALOG_LIMITS.configMaxBytes} bytes serialized.`,
  },
);
export type JobConfig = Static<typeof JobConfig>;

/** A cap on one job's reservation (docs/catalog.md, Estimates and budgets). */
export const MaxCredits = Type.Integer({
  minimum: 1,
  maximum: 1_000_000_000,
  description: 'The most credits the job may reserve: a create that would reserve more is refused with 402 and nothing is reserved.',
});

export const CreateJobBody = Type.Object(
  {
    type: JobTypeSchema,
    targets: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: CATALOG_LIMITS.targetMaxLength }), {
        minItems: 1,
        maxItems: CATALOG_LIMITS.maxTargetsPerJob,
        description:
          'Keywords (search), ASINs or product URLs (details, reviews, offers), browse node ids or category / best-seller URLs (bestsellers, category), seller ids or profile URLs (seller), prefixes (autocomplete). Duplicates are removed. Exactly one of `targets` and `targetListId`.',
      }),
    ),
    targetListId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'A target list of the same project and job type (`POST /projects/:projectId/target-lists`) whose targets the job takes. Exactly one of `targets` and `targetListId`.',
      }),
    ),
    config: Type.Optional(JobConfig),
    maxCredits: Type.Optional(MaxCredits),
  },
  { additionalProperties: false },
);
export type CreateJobBody = Static<typeof CreateJobBody>;

export const Target = Type.Object({
  value: Type.String({ description: 'The target as submitted.' }),
  status: TargetStatus,
  asin: Type.Optional(Type.String({ description: 'Resolved ASIN (details, reviews and offers jobs).' })),
  key: Type.Optional(
    Type.String({
      description: 'The resolved identifier of bestsellers, category, seller and autocomplete targets: the browse node id, seller id or prefix crawled.',
    }),
  ),
  reason: Type.Optional(Type.String({ description: 'Why the target failed.' })),
  resultCount: Type.Optional(Type.Integer()),
  charged: Type.Optional(
    Type.Boolean({ description: 'Present on `success` targets: true when the target is charged, false when its records were delivered without charge.' }),
  ),
  uncharged: Type.Optional(UnchargedReason),
  blockKind: Type.Optional(BlockKind),
  coverage: Type.Optional(TargetCoverage),
  cachedAt: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Answered from the shared page cache (`config.maxAge`, charged the cached price): when its page was fetched.',
    }),
  ),
  message: Type.Optional(
    Type.String({ description: 'Why the target failed, or why it was delivered without charge, in words.', examples: ['captcha (HTTP 200) after 4 attempts'] }),
  ),
});
export type Target = Static<typeof Target>;

/** Where a queued or running job stands in the fair dispatcher's line (docs/catalog.md, Queue position). */
export const JobQueue = Type.Object(
  {
    position: Type.Integer({
      minimum: 1,
      description: "The job's place among its organization's jobs with targets still waiting (1: none of them is ahead of it).",
    }),
    targetsAhead: Type.Integer({
      minimum: 0,
      description: "Tasks, of every organization, the fair dispatcher hands out before this job's next waiting target.",
    }),
    etaSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'Estimated seconds until every target has finished, from the dispatch order and the measured throughput; null until throughput is measured.',
    }),
  },
  { description: 'Present while the job is queued or running.' },
);
export type JobQueue = Static<typeof JobQueue>;

export const Job = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    organizationId: Type.String(),
    type: JobTypeSchema,
    status: JobStatus,
    targets: Type.Array(Target),
    config: OpenObject(),
    creditsReserved: Type.Integer(),
    maxCredits: Type.Optional(Type.Integer({ minimum: 1, description: 'The cap the create was given (`maxCredits`).' })),
    bullJobId: Type.String({ description: 'Queue reference: the queue id of the task for target 0.' }),
    resultCount: Type.Integer(),
    resultSetId: Type.Optional(Type.String()),
    retryOf: Type.Optional(Type.String()),
    scheduleId: Type.Optional(Type.String()),
    monitorId: Type.Optional(Type.String({ description: 'The monitor this job is a run (or a confirmation) of.' })),
    monitorRun: Type.Optional(
      Type.Union([Type.Literal('scheduled'), Type.Literal('manual'), Type.Literal('confirmation')], {
        description: "With `monitorId`: a scheduled run, a run asked for with `POST /monitors/:id/run`, or a one-target re-crawl confirming a rule's change.",
      }),
    ),
    startedAt: Type.Optional(Timestamp),
    completedAt: Type.Optional(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    queue: Type.Optional(JobQueue),
    fieldCoverage: Type.Optional(
      Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 }), {
        description:
          'Share (0–1) of the job’s records that have each optional field (docs/data.md), kept up to date as targets report; absent before the first record. A drop shows a layout change.',
        examples: [{ price: 0.98, starHistogram: 0.91, coupon: 0.12 }],
      }),
    ),
    charges: Type.Optional(
      Type.Object(TargetCharges.properties, {
        description:
          "The job's successful targets so far, charged and delivered without charge; the settlement captures credits for `chargedTargets` only (docs/catalog.md, Charges).",
      }),
    ),
  },
  { $id: 'Job' },
);
export type Job = Static<typeof Job>;

export const ListJobsQuery = Type.Object(
  {
    status: Type.Optional(JobStatus),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, default: CATALOG_LIMITS.listDefaultLimit, description: `Capped at ${CATALOG_LIMITS.listMaxLimit}.` }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type ListJobsQuery = Static<typeof ListJobsQuery>;

export const ResultsQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Ignored when `cursor` is given.' })),
    pageSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: CATALOG_LIMITS.resultsDefaultPageSize,
        description: `Capped at ${CATALOG_LIMITS.resultsMaxPageSize}.`,
      }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 32,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'Opaque: a `pagination.nextCursor` from an earlier response. Returns the `pageSize` results after it.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ResultsQuery = Static<typeof ResultsQuery>;

export const JobResults = Type.Object({
  // Typed as the records; the document keeps describing an open object (the export file's schema names them).
  items: Type.Array(
    Type.Unsafe<ResultRecord>(
      OpenObject(
        "A result record of the job type's schema (ProductRecord for details jobs, SearchRecord for search, ReviewRecord, OfferRecord, BestsellerRecord, CategoryItemRecord, SellerRecord, SuggestionRecord), as named in the export file schema and listed in docs/data.md.",
      ),
    ),
  ),
  pagination: Type.Object({
    page: Type.Integer({ description: 'The page these results are on (with a cursor: the page its first result falls on).' }),
    pageSize: Type.Integer(),
    total: Type.Integer({ description: "Results of the targets reported so far (the job's resultCount)." }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next results; null at the end.' }),
  }),
});
export type JobResults = Static<typeof JobResults>;

export const ExportFormat = Type.Union([Type.Literal('json'), Type.Literal('csv')]);
export type ExportFormat = Static<typeof ExportFormat>;
export const ExportQuery = Type.Object({ format: Type.Optional(ExportFormat) }, { additionalProperties: false });
/** `format=json`: every result object, in results order. */
export const ExportJsonFile = Type.Array(ResultRecord, { description: 'The result records, as in GET /jobs/:id/results (docs/data.md).' });
/** `format=csv`: a header row, then one line per result (nested fields flattened, formula-like cells escaped). */
export const ExportCsvFile = Type.String({ description: 'CSV (RFC 4180): a header row, then one row per result; no results, an empty file.' });
export type ExportQuery = Static<typeof ExportQuery>;

// ---------------------------------------------------------------------------------------------
// Schedules

export const CronExpression = Type.String({
  minLength: 1,
  maxLength: CATALOG_LIMITS.cronMaxLength,
  examples: ['0 6 * * *'],
  description: `5 fields (minute hour day-of-month month day-of-week), 6 with seconds first, or a nickname such as @daily; at most one run every ${CATALOG_LIMITS.scheduleMinIntervalMinutes} minutes by default.`,
});
export const TimeZoneName = Type.String({ minLength: 1, maxLength: 64, examples: ['Europe/Berlin'], description: 'IANA time zone; default UTC.' });

/** A schedule's monthly credit budget (docs/catalog.md, Estimates and budgets); null in an update removes it. */
const ScheduleBudget = Type.Integer({
  minimum: 1,
  maximum: 1_000_000_000,
  description: "Credits the schedule's runs may reserve per calendar month (UTC); a run that would pass it pauses the schedule until the next month.",
});

export const CreateScheduleBody = Type.Object(
  {
    cron: CronExpression,
    crawlConfig: CreateJobBody,
    timezone: Type.Optional(TimeZoneName),
    enabled: Type.Optional(Type.Boolean()),
    maxCreditsPerMonth: Type.Optional(ScheduleBudget),
  },
  { additionalProperties: false },
);
export type CreateScheduleBody = Static<typeof CreateScheduleBody>;

export const UpdateScheduleBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    cron: Type.Optional(CronExpression),
    crawlConfig: Type.Optional(CreateJobBody),
    timezone: Type.Optional(TimeZoneName),
    maxCreditsPerMonth: Type.Optional(Type.Union([ScheduleBudget, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateScheduleBody = Static<typeof UpdateScheduleBody>;

export const ListSchedulesQuery = Type.Object({ limit: ListLimit, offset: ListOffset }, { additionalProperties: false });
/** A project's webhook endpoints are few (at most 20), but they page like every list. */
export const ListWebhooksQuery = Type.Object({ limit: ListLimit, offset: ListOffset }, { additionalProperties: false });
export type ListWebhooksQuery = Static<typeof ListWebhooksQuery>;
export type ListSchedulesQuery = Static<typeof ListSchedulesQuery>;

export const ScheduleError = Type.Object({ code: Type.String(), message: Type.String(), at: Timestamp });

export const Schedule = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    organizationId: Type.String(),
    cron: Type.String(),
    timezone: Type.String(),
    crawlConfig: Type.Object({
      type: JobTypeSchema,
      targets: Type.Optional(Type.Array(Type.String())),
      targetListId: Type.Optional(Type.String()),
      config: Type.Optional(OpenObject()),
      maxCredits: Type.Optional(Type.Integer({ minimum: 1 })),
    }),
    enabled: Type.Boolean(),
    maxCreditsPerMonth: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The monthly credit budget; null without one.' }),
    budget: Type.Object(
      {
        month: Type.String({ examples: ['2026-11'], description: 'The UTC month counted.' }),
        credits: Type.Integer({ minimum: 0, description: "Credits the schedule's runs reserved this month." }),
      },
      { description: "The schedule's runs this month, counted against `maxCreditsPerMonth`." },
    ),
    pausedReason: Type.Union([Type.Literal('budget_exhausted'), Type.Null()], {
      description:
        '`budget_exhausted` while a run would have passed the monthly budget: no run fires until the next month (or until the budget is raised or removed).',
    }),
    pausedUntil: Type.Union([Timestamp, Type.Null()], { description: 'When a budget pause ends by itself (the start of the next month, UTC).' }),
    nextRunAt: Type.Union([Timestamp, Type.Null()], { description: 'The next run; null while the schedule is disabled or when the rule never fires again.' }),
    lastRunAt: Type.Union([Timestamp, Type.Null()]),
    lastJobId: Type.Union([Type.String(), Type.Null()]),
    lastError: Type.Union([ScheduleError, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Schedule' },
);
export type Schedule = Static<typeof Schedule>;

// ---------------------------------------------------------------------------------------------
// Audit

/** A value in an audit event's metadata: what JSON carries (a name, a count, a flag, a list, the fields a change set). */
export type AuditValue = string | number | boolean | null | readonly AuditValue[] | { readonly [field: string]: AuditValue | undefined };
/**
 * What an action records about itself, by name: `job.create` the job's type, target count and
 * credits, `project.update` the fields it changed, `credits.purchase` the order … Each action has
 * its own details; an undefined one is left out.
 */
export type AuditMetadata = { readonly [detail: string]: AuditValue | undefined };

export const AuditEvent = Type.Object(
  {
    id: Type.String(),
    organizationId: Type.String(),
    actorUserId: Type.String(),
    action: Type.String({ examples: ['job.create'] }),
    resourceType: Type.String(),
    resourceId: Type.String(),
    requestId: Type.Union([Type.String(), Type.Null()]),
    // Typed as the metadata; the document keeps describing an open object.
    metadata: Type.Unsafe<AuditMetadata>(OpenObject()),
    createdAt: Timestamp,
  },
  { $id: 'AuditEvent' },
);
export type AuditEvent = Static<typeof AuditEvent>;

export const AuditQuery = Type.Object(
  {
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000, default: CATALOG_LIMITS.listDefaultLimit, description: `Capped at ${CATALOG_LIMITS.listMaxLimit}.` }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

/** Actions catalog records itself; other services add theirs (auth.login, credits.purchase). */
export const AUDIT_ACTIONS = [
  'project.create',
  'project.update',
  'job.create',
  'job.cancel',
  'job.retry',
  'job.export',
  'schedule.create',
  'schedule.update',
  'schedule.run',
  'monitor.create',
  'monitor.update',
  'monitor.pause',
  'monitor.resume',
  'monitor.delete',
  'monitor.run',
] as const;
