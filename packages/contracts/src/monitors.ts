import { Type, type Static } from '@sinclair/typebox';
import { CATALOG_LIMITS, CronExpression, TimeZoneName } from './catalog.ts';
import { Timestamp } from './common.ts';
import { CREDITS_PER_TARGET } from './credits.ts';
import { ObservedSubject, PRODUCT_TRACKED_FIELDS, RANK_TRACKED_FIELDS, TrackedFieldSchema, TrackedValue, type TrackedField } from './observations.ts';

// Monitors (docs/monitors.md): a project's scheduled checks of products or search results, each
// run an ordinary job; rules read the changes history reports for those jobs and fire
// `monitor.triggered` events (stored, listed, sent to webhooks and on the job's event stream).

/** Limits of the monitors API (documented in docs/monitors.md). */
export const MONITOR_LIMITS = {
  nameMaxLength: 100,
  /** The job limit: every run is one job over all the targets. */
  maxTargets: CATALOG_LIMITS.maxTargetsPerJob,
  maxRules: 20,
  monitorsPerProject: 50,
  /** `every` bounds, and the least gap a `cron` monitor may have between two runs. */
  minIntervalMinutes: 15,
  maxIntervalMinutes: 7 * 24 * 60,
  maxCooldownMinutes: 30 * 24 * 60,
  /** `dropsBy` / `risesBy`: a percentage above 0, at most this (a drop is at most 100). */
  maxPercent: 1000,
  /** `entersTop` / `leavesTop`: a rank from 1 to this. */
  maxRank: 500,
  maxCreditsPerMonth: 100_000_000,
} as const;

/** The cooldown a monitor created without one has. */
export const DEFAULT_MONITOR_COOLDOWN = '1h';

export const MONITOR_RULE_OPS = [
  'changed',
  'dropsBy',
  'risesBy',
  'below',
  'above',
  'becomesUnavailable',
  'becomesAvailable',
  'sellerChanges',
  'entersTop',
  'leavesTop',
] as const;
export type MonitorRuleOp = (typeof MONITOR_RULE_OPS)[number];

/** The tracked fields whose values are numbers (an amount, a count, a rating, a rank or position). */
export const NUMERIC_TRACKED_FIELDS = [
  'price',
  'listPrice',
  'offerCount',
  'rating',
  'reviewCount',
  'bestSellersRank',
  'organicRank',
  'sponsoredPosition',
  'page',
] as const satisfies readonly TrackedField[];

/** The fields each rule operation reads; any other field is a 400. */
export const MONITOR_OP_FIELDS: Readonly<Record<MonitorRuleOp, readonly TrackedField[]>> = {
  changed: [...PRODUCT_TRACKED_FIELDS, ...RANK_TRACKED_FIELDS],
  dropsBy: NUMERIC_TRACKED_FIELDS,
  risesBy: NUMERIC_TRACKED_FIELDS,
  below: NUMERIC_TRACKED_FIELDS,
  above: NUMERIC_TRACKED_FIELDS,
  becomesUnavailable: ['inStock'],
  becomesAvailable: ['inStock'],
  sellerChanges: ['buyBoxSeller'],
  entersTop: ['organicRank'],
  leavesTop: ['organicRank'],
};

/** What `value` means for each operation that takes one; the others take none (a value is a 400). */
export const MONITOR_OP_VALUES: Readonly<Partial<Record<MonitorRuleOp, 'percent' | 'threshold' | 'rank'>>> = {
  dropsBy: 'percent',
  risesBy: 'percent',
  below: 'threshold',
  above: 'threshold',
  entersTop: 'rank',
  leavesTop: 'rank',
};

/** The fields a monitor of each type may watch: a product's (details), a search result's (search). */
export const MONITOR_WATCHABLE_FIELDS = { details: PRODUCT_TRACKED_FIELDS, search: RANK_TRACKED_FIELDS } as const;

/** Credits one run of a monitor reserves: one job over every target, one page per keyword. */
export const monitorRunCredits = (type: keyof typeof CREDITS_PER_TARGET, targets: number): number => CREDITS_PER_TARGET[type] * targets;

export const MonitorRuleOpSchema = Type.Union(
  MONITOR_RULE_OPS.map((op) => Type.Literal(op)),
  {
    description:
      '`changed`: any change of the field. `dropsBy` / `risesBy`: the value fell / rose by at least `value` percent of the previous one (a previous value of 0 or none never fires). `below` / `above`: the value crossed under / over `value` (it was not there before; a first value there counts). `becomesUnavailable` / `becomesAvailable`: `inStock` went from true to false / false to true. `sellerChanges`: another seller holds the buy box (`buyBoxSeller`; losing it to nobody is `changed`). `entersTop` / `leavesTop`: `organicRank` moved into / out of the first `value` places (a rank that becomes null, no longer ranked, counts as leaving).',
  },
);

export const MonitorRule = Type.Object(
  {
    field: Type.Union(
      [...PRODUCT_TRACKED_FIELDS, ...RANK_TRACKED_FIELDS].map((field) => Type.Literal(field)),
      { description: 'A watched field. `bestSellersRank` applies to each category the product is ranked in.' },
    ),
    op: MonitorRuleOpSchema,
    value: Type.Optional(
      Type.Number({
        minimum: -1_000_000_000,
        maximum: 1_000_000_000,
        description:
          'Required by `dropsBy` and `risesBy` (a percentage above 0, at most 100 for a drop), `below` and `above` (the threshold, in the field’s unit: a price’s amount, a rating, a count), `entersTop` and `leavesTop` (a rank, 1–500, whole). Not allowed with the other operations.',
        examples: [10],
      }),
    ),
    confirm: Type.Optional(
      Type.Boolean({
        description:
          'Crawl the target once more (a one-target job of the monitor, charged like a run) before firing, and fire only when the change is still there. Default false.',
      }),
    ),
  },
  { $id: 'MonitorRule', additionalProperties: false },
);
export type MonitorRule = Static<typeof MonitorRule>;

/** `15m`, `6h`, `1d`: minutes, hours or days. */
const Duration = (description: string, examples: string[], allowZero: boolean) =>
  Type.String({ pattern: allowZero ? '^(0|[1-9][0-9]{0,5})[mhd]$' : '^[1-9][0-9]{0,5}[mhd]$', maxLength: 7, description, examples });

export const MonitorInterval = Duration(
  `How often the monitor runs, in minutes (m), hours (h) or days (d): from ${MONITOR_LIMITS.minIntervalMinutes}m to 7d. Either this or \`cron\`.`,
  ['15m', '1h', '6h', '1d', '7d'],
  false,
);
export const MonitorCooldown = Duration(
  `After a rule fired for a target, the same rule stays quiet for that target this long (0m: never quiet; at most 30d). Default ${DEFAULT_MONITOR_COOLDOWN}.`,
  ['1h', '0m', '1d'],
  true,
);

const MonitorName = Type.String({ minLength: 1, maxLength: MONITOR_LIMITS.nameMaxLength, description: 'Trimmed; must not be blank.' });
const MonitorTargets = Type.Array(Type.String({ minLength: 1, maxLength: CATALOG_LIMITS.targetMaxLength }), {
  minItems: 1,
  maxItems: MONITOR_LIMITS.maxTargets,
  description:
    'ASINs or product URLs (details monitors; stored as ASINs) or keywords (search monitors), checked as a job’s targets are. Duplicates are removed.',
});
const MonitorTargetListId = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'A target list of the same project and the monitor’s type (`POST /projects/:projectId/target-lists`) whose targets the monitor takes, read once when it is given (later changes to the list do not follow). In place of `targets`; at most one job’s targets.',
});
const MonitorDomain = Type.String({
  minLength: 1,
  maxLength: 100,
  examples: ['amazon.de'],
  description: 'The storefront, checked as a job’s `config.domain` is (a supported marketplace; any case, an optional `https://` and `www.`).',
});
const MonitorDeliveryZip = Type.String({
  minLength: 2,
  maxLength: 10,
  pattern: '^[A-Za-z0-9][A-Za-z0-9 -]{1,9}$',
  examples: ['10115'],
  description: 'The delivery location (a postal code of the storefront), as a job’s `config.deliveryZip`.',
});
const MonitorWatch = Type.Array(TrackedFieldSchema, {
  minItems: 1,
  maxItems: PRODUCT_TRACKED_FIELDS.length,
  uniqueItems: true,
  description: 'The tracked fields the monitor follows: product fields for details monitors, search-result fields for search monitors (docs/monitors.md).',
});
const MonitorRules = Type.Array(MonitorRule, {
  minItems: 1,
  maxItems: MONITOR_LIMITS.maxRules,
  description: 'Each rule reads one watched field; a change that passes a rule fires a `monitor.triggered` event.',
});
const MaxCreditsPerMonth = Type.Integer({
  minimum: 1,
  maximum: MONITOR_LIMITS.maxCreditsPerMonth,
  description:
    'Credits the monitor’s runs (confirmations included) may reserve per calendar month (UTC). A run that would pass it pauses the monitor (`pausedReason: budget_exhausted`) until the next month.',
});

/** What a monitor checks: products (details) or search results (search), the page kinds history keeps. */
export const MonitorTypeSchema = Type.Union([Type.Literal('details'), Type.Literal('search')], {
  description: 'details: products by ASIN; search: keywords and the ranks of their results.',
});
export type MonitorType = Static<typeof MonitorTypeSchema>;

export const CreateMonitorBody = Type.Object(
  {
    name: MonitorName,
    type: MonitorTypeSchema,
    targets: Type.Optional(MonitorTargets),
    targetListId: Type.Optional(MonitorTargetListId),
    domain: MonitorDomain,
    deliveryZip: Type.Optional(MonitorDeliveryZip),
    every: Type.Optional(MonitorInterval),
    cron: Type.Optional(CronExpression),
    timezone: Type.Optional(TimeZoneName),
    watch: MonitorWatch,
    rules: MonitorRules,
    cooldown: Type.Optional(MonitorCooldown),
    maxCreditsPerMonth: Type.Optional(MaxCreditsPerMonth),
    enabled: Type.Optional(Type.Boolean({ description: 'false: created paused. Default true.' })),
  },
  { additionalProperties: false },
);
export type CreateMonitorBody = Static<typeof CreateMonitorBody>;

export const UpdateMonitorBody = Type.Object(
  {
    name: Type.Optional(MonitorName),
    targets: Type.Optional(MonitorTargets),
    targetListId: Type.Optional(MonitorTargetListId),
    domain: Type.Optional(MonitorDomain),
    deliveryZip: Type.Optional(Type.Union([MonitorDeliveryZip, Type.Null()], { description: 'null: no delivery location.' })),
    every: Type.Optional(MonitorInterval),
    cron: Type.Optional(CronExpression),
    timezone: Type.Optional(TimeZoneName),
    watch: Type.Optional(MonitorWatch),
    rules: Type.Optional(MonitorRules),
    cooldown: Type.Optional(MonitorCooldown),
    maxCreditsPerMonth: Type.Optional(Type.Union([MaxCreditsPerMonth, Type.Null()], { description: 'null: no monthly budget.' })),
    enabled: Type.Optional(Type.Boolean({ description: 'false pauses, true resumes (as the pause and resume routes).' })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'Changes what is given (at least one field); the type stays. `every` switches the monitor to an interval (its cron is dropped), `cron` to a cron rule (its interval is dropped); both at once is a 400. The result is checked as a create is.',
  },
);
export type UpdateMonitorBody = Static<typeof UpdateMonitorBody>;

const ListLimit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 1_000_000, default: CATALOG_LIMITS.listDefaultLimit, description: `Capped at ${CATALOG_LIMITS.listMaxLimit}.` }),
);
const ListOffset = Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }));

export const ListMonitorsQuery = Type.Object({ limit: ListLimit, offset: ListOffset }, { additionalProperties: false });
export type ListMonitorsQuery = Static<typeof ListMonitorsQuery>;
export const ListMonitorEventsQuery = Type.Object({ limit: ListLimit, offset: ListOffset }, { additionalProperties: false });
export type ListMonitorEventsQuery = Static<typeof ListMonitorEventsQuery>;

export const MonitorStatus = Type.Union([Type.Literal('active'), Type.Literal('paused')]);
export type MonitorStatus = Static<typeof MonitorStatus>;
export const MonitorPausedReason = Type.Union([Type.Literal('user'), Type.Literal('budget_exhausted')], {
  description: '`user`: paused through the API (or created disabled); `budget_exhausted`: a run would have passed `maxCreditsPerMonth`.',
});
export type MonitorPausedReason = Static<typeof MonitorPausedReason>;

/** A run (or confirmation) that could not create its job: the refusal as the job create answered it. */
export const MonitorRunError = Type.Object({
  code: Type.String({ examples: ['INSUFFICIENT_CREDITS'] }),
  message: Type.String(),
  at: Timestamp,
});
export type MonitorRunError = Static<typeof MonitorRunError>;

export const MonitorCredits = Type.Object(
  {
    month: Type.String({ pattern: '^\\d{4}-\\d{2}$', examples: ['2026-03'], description: 'The calendar month (UTC) `used` counts.' }),
    used: Type.Integer({ minimum: 0, description: 'Credits the monitor’s jobs reserved this month.' }),
    perRun: Type.Integer({ minimum: 0, description: 'Credits one run reserves (every target once).' }),
  },
  { description: 'What the monitor spends, against `maxCreditsPerMonth`.' },
);
export type MonitorCredits = Static<typeof MonitorCredits>;

export const Monitor = Type.Object(
  {
    id: Type.String(),
    projectId: Type.String(),
    organizationId: Type.String(),
    name: Type.String(),
    type: MonitorTypeSchema,
    targets: Type.Array(Type.String(), { description: 'ASINs (details) or keywords (search), normalized and de-duplicated.' }),
    domain: Type.String({ examples: ['amazon.de'] }),
    deliveryZip: Type.Union([Type.String(), Type.Null()]),
    every: Type.Union([Type.String(), Type.Null()], { description: 'The interval; null for a cron monitor.' }),
    cron: Type.Union([Type.String(), Type.Null()], { description: 'The cron rule; null for an interval monitor.' }),
    timezone: Type.Union([Type.String(), Type.Null()], { description: 'The cron rule’s time zone; null for an interval monitor.' }),
    watch: Type.Array(TrackedFieldSchema),
    rules: Type.Array(MonitorRule),
    cooldown: Type.String({ examples: ['1h'] }),
    maxCreditsPerMonth: Type.Union([Type.Integer(), Type.Null()]),
    credits: MonitorCredits,
    status: MonitorStatus,
    pausedReason: Type.Union([MonitorPausedReason, Type.Null()]),
    pausedAt: Type.Union([Timestamp, Type.Null()]),
    resumesAt: Type.Union([Timestamp, Type.Null()], {
      description: 'A monitor paused for its budget resumes by itself then (the next month); null otherwise.',
    }),
    nextRunAt: Type.Union([Timestamp, Type.Null()], { description: 'The next run; null while paused, or when the cron rule never fires again.' }),
    lastRunAt: Type.Union([Timestamp, Type.Null()]),
    lastJobId: Type.Union([Type.String(), Type.Null()]),
    lastError: Type.Union([MonitorRunError, Type.Null()], { description: 'Why the last run could not start; cleared by the next run that does.' }),
    lastTriggeredAt: Type.Union([Timestamp, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { $id: 'Monitor' },
);
export type Monitor = Static<typeof Monitor>;

/** `monitor.triggered`: a rule fired for a target. The same object is listed, sent to webhooks and on the job’s event stream. */
export const MonitorEvent = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('monitor.triggered'),
    monitorId: Type.String(),
    projectId: Type.String(),
    organizationId: Type.String(),
    target: Type.String({ description: 'The monitor’s target: the ASIN (details) or the keyword (search).' }),
    subject: ObservedSubject,
    field: Type.String({ description: 'The changed field: a tracked field, or `bestSellersRank:<category>`.', examples: ['price'] }),
    rule: MonitorRule,
    previous: TrackedValue,
    current: TrackedValue,
    changePercent: Type.Union([Type.Number(), Type.Null()], {
      description: '(current − previous) / previous × 100, rounded to 2 decimals, for numbers with a previous value other than 0; null otherwise.',
      examples: [-12.5],
    }),
    previousObservedAt: Timestamp,
    observedAt: Timestamp,
    jobId: Type.String({ description: 'The job the current value was read by.' }),
    resultId: Type.String({ description: 'The result row the current value was read from.' }),
    confirmedBy: Type.Union([Type.Object({ jobId: Type.String(), at: Timestamp }), Type.Null()], {
      description: 'With a `confirm` rule: the confirmation job that found the change still there; null otherwise.',
    }),
    createdAt: Timestamp,
  },
  { $id: 'MonitorEvent' },
);
export type MonitorEvent = Static<typeof MonitorEvent>;

/** `data` of a `monitor.triggered` webhook delivery. */
export const MonitorTriggeredWebhookData = Type.Object({
  monitorEvent: MonitorEvent,
  links: Type.Object({
    monitor: Type.String(),
    monitorEvents: Type.String(),
    job: Type.String(),
    results: Type.String(),
  }),
});
export type MonitorTriggeredWebhookData = Static<typeof MonitorTriggeredWebhookData>;

/** `data` of a `monitor.paused` webhook delivery: a monitor paused itself (its monthly budget). */
export const MonitorPausedWebhookData = Type.Object({
  monitor: Monitor,
  reason: MonitorPausedReason,
  message: Type.String(),
  links: Type.Object({ monitor: Type.String() }),
});
export type MonitorPausedWebhookData = Static<typeof MonitorPausedWebhookData>;
