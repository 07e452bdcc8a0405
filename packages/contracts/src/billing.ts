import { Type, type Static } from '@sinclair/typebox';
import { DataEnvelope, ListEnvelope, Timestamp } from './common.ts';
import { TargetCharges } from './target-outcome.ts';

/** Monthly limits, exactly the spec's keys. */
export const UsageLimits = Type.Object({
  jobsPerMonth: Type.Integer(),
  targetsPerMonth: Type.Integer(),
  exportsPerMonth: Type.Integer(),
});
export type UsageLimits = Static<typeof UsageLimits>;

export const UsageUsed = Type.Object({
  jobsThisMonth: Type.Integer({ minimum: 0 }),
  targetsThisMonth: Type.Integer({ minimum: 0 }),
  exportsThisMonth: Type.Integer({ minimum: 0 }),
});
export type UsageUsed = Static<typeof UsageUsed>;

/** The caller's credit balance as shown next to usage. */
export const CreditBalance = Type.Object({
  available: Type.Integer({ minimum: 0 }),
  reserved: Type.Integer({ minimum: 0 }),
});
export type CreditBalance = Static<typeof CreditBalance>;

export const Usage = Type.Object({
  limits: UsageLimits,
  used: UsageUsed,
  /** `limits` minus `used`, per key. */
  remaining: UsageLimits,
  credits: CreditBalance,
  charges: Type.Object(TargetCharges.properties, {
    description: "This month's settled targets, charged and delivered without charge, read from the credit ledger (docs/billing.md).",
  }),
  /** Calendar month in UTC, e.g. `2026-11`. */
  month: Type.String({ examples: ['2026-11'] }),
  /** When the counters start again (first instant of next month, UTC). */
  resetsAt: Timestamp,
});
export type Usage = Static<typeof Usage>;
export const UsageResponse = DataEnvelope(Usage);

export const DailyCreditsQuery = Type.Object(
  {
    month: Type.Optional(
      Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'A UTC month, `YYYY-MM`; the current month when absent.', examples: ['2026-11'] }),
    ),
  },
  { additionalProperties: false },
);
export type DailyCreditsQuery = Static<typeof DailyCreditsQuery>;

/** One UTC day of an organization's credit ledger. */
export const CreditDay = Type.Object({
  date: Type.String({ description: 'The UTC day, `YYYY-MM-DD`.', examples: ['2026-11-22'] }),
  spent: Type.Integer({ minimum: 0, description: 'Credits captured that day for crawled targets and pages.' }),
  added: Type.Integer({ description: 'Credits added that day (purchases, grants, bonuses, referral rewards), less credits revoked.' }),
  chargedTargets: Type.Integer({ minimum: 0, description: 'Targets charged by the settlements of that day.' }),
  unchargedTargets: Type.Integer({ minimum: 0, description: 'Targets delivered without charge by the settlements of that day.' }),
});
export type CreditDay = Static<typeof CreditDay>;

export const DailyCredits = Type.Object({
  month: Type.String({ examples: ['2026-11'] }),
  days: Type.Array(CreditDay, { description: 'Every day of the month, oldest first (days after today are zero).' }),
});
export type DailyCredits = Static<typeof DailyCredits>;
export const DailyCreditsResponse = DataEnvelope(DailyCredits);

export const CreditPackage = Type.Object({
  id: Type.String(),
  name: Type.String(),
  priceCents: Type.Integer({ minimum: 0 }),
  currency: Type.String({ examples: ['USD'] }),
  credits: Type.Integer({ minimum: 0 }),
  bonusCredits: Type.Integer({ minimum: 0 }),
});
export type CreditPackage = Static<typeof CreditPackage>;
export const CreditPackagesResponse = DataEnvelope(Type.Array(CreditPackage));

export const CheckoutBody = Type.Object(
  {
    packageId: Type.String({ minLength: 1, maxLength: 64 }),
    /** Repeating a checkout with the same key returns the first order instead of buying twice. */
    idempotencyKey: Type.Optional(Type.String({ minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' })),
  },
  { additionalProperties: false },
);
export type CheckoutBody = Static<typeof CheckoutBody>;

export const OrderStatus = Type.Union([Type.Literal('pending'), Type.Literal('completed'), Type.Literal('failed')]);
export type OrderStatus = Static<typeof OrderStatus>;

export const CreditOrder = Type.Object({
  id: Type.String(),
  packageId: Type.String(),
  status: OrderStatus,
  priceCents: Type.Integer(),
  currency: Type.String(),
  credits: Type.Integer({ description: 'Package credits plus bonus credits, granted on completion.' }),
  provider: Type.String(),
  /** Where a hosted provider wants the user to go; absent for the sandbox, which completes at once. */
  redirectUrl: Type.Optional(Type.String()),
  createdAt: Timestamp,
  completedAt: Type.Optional(Timestamp),
});
export type CreditOrder = Static<typeof CreditOrder>;

export const CheckoutResponse = DataEnvelope(Type.Object({ order: CreditOrder, credits: CreditBalance }));

export const ReferralCodeResponse = DataEnvelope(
  Type.Object({
    code: Type.String(),
    link: Type.String({
      format: 'uri',
      description: 'The absolute URL to share: opening it (GET /referral/click?code=…) records a click and says how to register with the code.',
      examples: ['https://api.example.com/referral/click?code=K7M2QX9P'],
    }),
  }),
);

const ReferralCode = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'Case-insensitive.' });

export const ReferralClickBody = Type.Object({ code: ReferralCode }, { additionalProperties: false });
export type ReferralClickBody = Static<typeof ReferralClickBody>;
export const ReferralClickResponse = DataEnvelope(Type.Object({ recorded: Type.Boolean() }));

export const ReferralLinkQuery = Type.Object({ code: ReferralCode }, { additionalProperties: false });
export type ReferralLinkQuery = Static<typeof ReferralLinkQuery>;
export const ReferralLinkResponse = DataEnvelope(
  Type.Object({
    code: Type.String(),
    recorded: Type.Boolean(),
    register: Type.Object(
      {
        method: Type.Literal('POST'),
        url: Type.String({ format: 'uri' }),
        referralCode: Type.String({ description: 'Send as `referralCode` in the register body.' }),
      },
      { description: 'How the visitor signs up with the code.' },
    ),
  }),
);

export const ReferralStats = Type.Object({
  code: Type.String(),
  clicks: Type.Integer({ minimum: 0 }),
  signups: Type.Integer({ minimum: 0 }),
  rewards: Type.Integer({ minimum: 0, description: 'Referred organizations that earned the caller a reward.' }),
  rewardCredits: Type.Integer({ minimum: 0, description: 'Credits granted to the caller organization by those rewards.' }),
});
export type ReferralStats = Static<typeof ReferralStats>;
export const ReferralStatsResponse = DataEnvelope(ReferralStats);

/* ---- billing admin ---- */

export const OrganizationParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type OrganizationParams = Static<typeof OrganizationParams>;

export const AdminCreditsBody = Type.Object(
  {
    type: Type.Union([Type.Literal('grant'), Type.Literal('revoke')]),
    amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
    reason: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type AdminCreditsBody = Static<typeof AdminCreditsBody>;

export const LedgerEntryKind = Type.Union([
  Type.Literal('signup_bonus'),
  Type.Literal('purchase'),
  Type.Literal('admin_grant'),
  Type.Literal('admin_revoke'),
  Type.Literal('referral_reward'),
  Type.Literal('reservation'),
  Type.Literal('capture'),
  Type.Literal('release'),
]);
export type LedgerEntryKind = Static<typeof LedgerEntryKind>;

export const FullBalance = Type.Object({
  available: Type.Integer(),
  reserved: Type.Integer(),
  spent: Type.Integer(),
  granted: Type.Integer(),
});
export type FullBalance = Static<typeof FullBalance>;

export const LedgerEntryView = Type.Object({
  id: Type.String(),
  organizationId: Type.String(),
  /** Position in the organization's ledger: 1, 2, 3… without gaps. */
  sequence: Type.Integer(),
  kind: LedgerEntryKind,
  /** Credits moved by this entry (always positive; the kind says which way). */
  amount: Type.Integer(),
  reason: Type.String(),
  jobId: Type.Optional(Type.String()),
  orderId: Type.Optional(Type.String()),
  actorUserId: Type.Optional(Type.String()),
  charges: Type.Optional(
    Type.Object(TargetCharges.properties, {
      description: "On a job settlement's capture and release entries: the job's targets charged, and those delivered without charge.",
    }),
  ),
  balanceAfter: FullBalance,
  createdAt: Timestamp,
});
export type LedgerEntryView = Static<typeof LedgerEntryView>;

export const AdminCreditsResponse = DataEnvelope(Type.Object({ entry: LedgerEntryView, balance: FullBalance }));

/**
 * A multi-type `type` rather than a union: with type coercion on, a union's integer branch would
 * turn `null` into 0, while a type list only coerces when no listed type matches.
 */
const LimitValue = Type.Unsafe<number | null>({
  type: ['integer', 'null'],
  minimum: 0,
  maximum: 10_000_000,
  description: 'A number sets the organization limit; null returns it to the configured default.',
});
export const AdminLimitsBody = Type.Object(
  {
    jobsPerMonth: Type.Optional(LimitValue),
    targetsPerMonth: Type.Optional(LimitValue),
    exportsPerMonth: Type.Optional(LimitValue),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type AdminLimitsBody = Static<typeof AdminLimitsBody>;
export const AdminLimitsResponse = DataEnvelope(Type.Object({ organizationId: Type.String(), limits: UsageLimits }));

export const AdminUsageResponse = DataEnvelope(
  Type.Object({
    organizationId: Type.String(),
    month: Type.String(),
    limits: UsageLimits,
    used: UsageUsed,
    remaining: UsageLimits,
    balance: FullBalance,
  }),
);

export const AdminLedgerQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
export type AdminLedgerQuery = Static<typeof AdminLedgerQuery>;

export const AdminLedgerResponse = ListEnvelope(LedgerEntryView);

/** What one reconciler pass did (also run on demand by an admin). */
export const ReconcileReport = Type.Object({
  abortedPending: Type.Integer(),
  resumed: Type.Integer(),
  releasedMissingJobs: Type.Integer(),
  releasedExpired: Type.Integer(),
  rolledForward: Type.Integer(),
  catalogChecked: Type.Boolean({ description: 'False when catalog was unreachable and only the age rules ran.' }),
});
export type ReconcileReport = Static<typeof ReconcileReport>;
export const ReconcileResponse = DataEnvelope(ReconcileReport);
