import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from './common.ts';
import { JOB_TYPES, MAX_UNITS_PER_TARGET } from './credits.ts';
import { UsageResponse } from './billing.ts';
import { defineInternalRoutes, pathOf } from './route-spec.ts';

export const OpenAccountBody = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  ownerUserId: Type.String({ minLength: 1 }),
  referralCode: Type.Optional(Type.String({ maxLength: 64 })),
});
export type OpenAccountBody = Static<typeof OpenAccountBody>;

export const BalanceView = Type.Object({
  organizationId: Type.String(),
  available: Type.Integer(),
  reserved: Type.Integer(),
  spent: Type.Integer(),
  granted: Type.Integer(),
});
export type BalanceView = Static<typeof BalanceView>;

export const ReservationReason = Type.Union([Type.Literal('job.create'), Type.Literal('job.retry'), Type.Literal('schedule.run'), Type.Literal('monitor.run')]);

/** Idempotent on `jobId`: a repeated call returns the existing reservation and consumes nothing more. */
export const ReserveBody = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  jobId: Type.String({ minLength: 1 }),
  jobType: Type.Union(JOB_TYPES.map((type) => Type.Literal(type))),
  targetCount: Type.Integer({ minimum: 1 }),
  /** Billable units held per target (pages of the per-page types, docs/catalog.md); default 1. */
  unitsPerTarget: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_UNITS_PER_TARGET })),
  reason: ReservationReason,
});
export type ReserveBody = Static<typeof ReserveBody>;

export const ReservationStatus = Type.Union([Type.Literal('held'), Type.Literal('settled'), Type.Literal('released')]);

export const Reservation = Type.Object({
  jobId: Type.String(),
  organizationId: Type.String(),
  credits: Type.Integer({ description: 'Credits held for the job.' }),
  creditsPerTarget: Type.Integer(),
  targetCount: Type.Integer(),
  status: ReservationStatus,
  captured: Type.Integer(),
  released: Type.Integer(),
  createdAt: Timestamp,
});
export type Reservation = Static<typeof Reservation>;

/** Undo a reservation whose job was never persisted; also gives back the monthly quota it took. */
export const ReleaseBody = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  reason: Type.String({ minLength: 1, maxLength: 200 }),
});
export type ReleaseBody = Static<typeof ReleaseBody>;

/** Exactly once per job: captures the charged targets' credits and releases the rest. */
export const SettleBody = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  jobId: Type.String({ minLength: 1 }),
  /** Successful targets to charge. */
  succeededTargets: Type.Integer({ minimum: 0 }),
  failedTargets: Type.Integer({ minimum: 0 }),
  cancelledTargets: Type.Integer({ minimum: 0 }),
  /** Successful targets delivered without charge (not in `succeededTargets`): released like failures, counted apart. Absent: none. */
  unchargedTargets: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * The billable units of the charged targets, for types billed per page fetched (reviews, offers):
   * captured at the type's price per unit, never more than was held. Absent: every charged target
   * costs the units held for it.
   */
  chargedUnits: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * Of the charged targets' units, those answered from the shared page cache: captured at the
   * type's cached price per unit instead of the full one. Absent: none.
   */
  cachedUnits: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type SettleBody = Static<typeof SettleBody>;

export const Settlement = Type.Object({
  jobId: Type.String(),
  captured: Type.Integer(),
  released: Type.Integer(),
  /** True when an earlier call already settled the job; the figures are that settlement's. */
  alreadySettled: Type.Boolean(),
});
export type Settlement = Static<typeof Settlement>;

export const ConsumeExportBody = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  jobId: Type.String({ minLength: 1 }),
  format: Type.Union([Type.Literal('json'), Type.Literal('csv')]),
});
export type ConsumeExportBody = Static<typeof ConsumeExportBody>;

export const ExportAllowance = Type.Object({
  exportsThisMonth: Type.Integer(),
  exportsPerMonth: Type.Integer(),
});
export type ExportAllowance = Static<typeof ExportAllowance>;

/** The admin-set crawler settings (GET /internal/billing/crawler-settings); empty when none is set. */
export const CrawlerSettingsView = Type.Object({
  requestsPerMinute: Type.Optional(Type.Integer({ minimum: 1 })),
  updatedAt: Type.Optional(Timestamp),
});
export type CrawlerSettingsView = Static<typeof CrawlerSettingsView>;
export const CrawlerSettingsResponse = Type.Object({ data: CrawlerSettingsView });
export type CrawlerSettingsResponse = Static<typeof CrawlerSettingsResponse>;

/** One egress identity as a worker last saw it (PUT /internal/billing/crawler-identities). */
export const EgressIdentityReport = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  label: Type.String({ minLength: 1, maxLength: 512 }),
  cooledDownUntil: Type.Optional(Timestamp),
  blockedRecently: Type.Integer({ minimum: 0 }),
});
export type EgressIdentityReport = Static<typeof EgressIdentityReport>;

/** A worker's egress identities (direct, or each proxy with credentials masked), sent on every rate refresh. */
export const CrawlerIdentitiesBody = Type.Object({ identities: Type.Array(EgressIdentityReport, { maxItems: 1000 }) }, { additionalProperties: false });
export type CrawlerIdentitiesBody = Static<typeof CrawlerIdentitiesBody>;

/** How many identities billing now holds for the worker. */
export const CrawlerIdentitiesResponse = Type.Object({ data: Type.Object({ identities: Type.Integer({ minimum: 0 }) }) });
export type CrawlerIdentitiesResponse = Static<typeof CrawlerIdentitiesResponse>;

export const BalanceResponse = Type.Object({ data: BalanceView });
export type BalanceResponse = Static<typeof BalanceResponse>;
export const ReservationResponse = Type.Object({ data: Reservation });
export type ReservationResponse = Static<typeof ReservationResponse>;
export const SettlementResponse = Type.Object({ data: Settlement });
export type SettlementResponse = Static<typeof SettlementResponse>;
export const ExportAllowanceResponse = Type.Object({ data: ExportAllowance });
export type ExportAllowanceResponse = Static<typeof ExportAllowanceResponse>;

/** An organization whose month catalog reads (a job estimate). */
export const UsageParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 128 }) });
export type UsageParams = Static<typeof UsageParams>;

export const ReservationParams = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 128 }) });
export type ReservationParams = Static<typeof ReservationParams>;

/**
 * Billing's internal API, called by auth (accounts), catalog (reservations, settlements, exports)
 * and the crawler-worker (settings, and the state of its egress identities). Idempotent where the bodies say so.
 */
export const BillingInternalRoutes = defineInternalRoutes({
  openAccount: {
    method: 'POST',
    url: '/internal/billing/accounts',
    access: 'internal',
    schema: { body: OpenAccountBody, response: { 200: BalanceResponse } },
  },
  reserve: { method: 'POST', url: '/internal/billing/reservations', access: 'internal', schema: { body: ReserveBody, response: { 200: ReservationResponse } } },
  release: {
    method: 'POST',
    url: '/internal/billing/reservations/:jobId/release',
    access: 'internal',
    schema: { params: ReservationParams, body: ReleaseBody, response: { 200: ReservationResponse } },
  },
  settle: { method: 'POST', url: '/internal/billing/settlements', access: 'internal', schema: { body: SettleBody, response: { 200: SettlementResponse } } },
  consumeExport: {
    method: 'POST',
    url: '/internal/billing/exports',
    access: 'internal',
    schema: { body: ConsumeExportBody, response: { 200: ExportAllowanceResponse } },
  },
  usage: {
    method: 'GET',
    url: '/internal/billing/usage/:organizationId',
    access: 'internal',
    schema: { params: UsageParams, response: { 200: UsageResponse } },
  },
  crawlerSettings: { method: 'GET', url: '/internal/billing/crawler-settings', access: 'internal', schema: { response: { 200: CrawlerSettingsResponse } } },
  reportCrawlerIdentities: {
    method: 'PUT',
    url: '/internal/billing/crawler-identities',
    access: 'internal',
    schema: { body: CrawlerIdentitiesBody, response: { 200: CrawlerIdentitiesResponse } },
  },
});

const R = BillingInternalRoutes;

/** The paths the typed clients call, built from the same table as the routes. */
export const BillingPaths = {
  openAccount: R.openAccount.url,
  reserve: R.reserve.url,
  release: (jobId: string) => pathOf(R.release, { jobId }),
  settle: R.settle.url,
  consumeExport: R.consumeExport.url,
  usage: (organizationId: string) => pathOf(R.usage, { organizationId }),
  crawlerSettings: R.crawlerSettings.url,
  crawlerIdentities: R.reportCrawlerIdentities.url,
} as const;
