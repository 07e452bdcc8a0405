import { Type, type Static } from '@sinclair/typebox';
import { AuditEvent, type AuditMetadata, CATALOG_LIMITS } from './catalog.ts';
import type { ResultRecord } from './records.ts';
import { defineInternalRoutes, pathOf } from './route-spec.ts';
import { BlockKind, TargetCoverage, UnchargedReason } from './target-outcome.ts';
import { MAX_UNITS_PER_TARGET } from './credits.ts';

/** A target of a job in a path: bounded so junk never reaches storage. */
export const TargetParams = Type.Object(
  { jobId: Type.String({ minLength: 1, maxLength: 64 }), index: Type.Integer({ minimum: 0, maximum: CATALOG_LIMITS.maxTargetsPerJob }) },
  { additionalProperties: false },
);
export type TargetParams = Static<typeof TargetParams>;

export const JobIdParams = Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type JobIdParams = Static<typeof JobIdParams>;

export const JobStateResponse = Type.Object({
  data: Type.Object({
    exists: Type.Boolean(),
    status: Type.Optional(Type.String()),
    organizationId: Type.Optional(Type.String()),
    settled: Type.Optional(Type.Boolean()),
  }),
});
export type JobStateResponse = Static<typeof JobStateResponse>;

export const TargetFailureReason = Type.Union([
  Type.Literal('blocked'),
  Type.Literal('unrecognized_page'),
  Type.Literal('not_found'),
  Type.Literal('parse_error'),
  Type.Literal('upstream_error'),
  Type.Literal('timeout'),
  Type.Literal('invalid_target'),
]);
export type TargetFailureReason = Static<typeof TargetFailureReason>;

/** `proceed: false` when the job was cancelled or the target already finished: drop the task. */
export const ClaimTargetResponse = Type.Object({
  data: Type.Object({
    proceed: Type.Boolean(),
    jobStatus: Type.String(),
    targetStatus: Type.String(),
  }),
});
export type ClaimTargetResponse = Static<typeof ClaimTargetResponse>;

/** Re-reporting a target replaces its results: a re-run never duplicates them. */
export const ReportTargetBody = Type.Object({
  status: Type.Union([Type.Literal('success'), Type.Literal('failed')]),
  reason: Type.Optional(TargetFailureReason),
  /** With `reason: blocked`: the kind of page that stood in for the one asked for. */
  blockKind: Type.Optional(BlockKind),
  /** With `status: success`: the records are delivered but the target is not charged, and why. */
  uncharged: Type.Optional(UnchargedReason),
  message: Type.Optional(Type.String({ maxLength: 1000 })),
  /**
   * The target's records, of the job's type. Typed as records; checked on the wire as objects only
   * (the worker built them against the record schemas, and a stored record keeps what it sent).
   */
  items: Type.Array(Type.Unsafe<ResultRecord>(Type.Record(Type.String(), Type.Unknown())), { maxItems: 5000 }),
  /** Upstream requests this target took (pages and retries), for observability. */
  requests: Type.Optional(Type.Integer({ minimum: 0 })),
  /** What share of the marketplace's records the target fetched (reviews). */
  coverage: Type.Optional(TargetCoverage),
  /** Billable units of the target for types billed per page fetched (pages that yielded records); absent: 1. */
  billableUnits: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_UNITS_PER_TARGET })),
  /** With `status: success`: the records came from the shared page cache, from a fetch at this time (charged the cached price). */
  cachedAt: Type.Optional(Type.String({ format: 'date-time' })),
});
export type ReportTargetBody = Static<typeof ReportTargetBody>;

export const ReportTargetResponse = Type.Object({
  data: Type.Object({
    jobStatus: Type.String(),
    finished: Type.Boolean(),
  }),
});
export type ReportTargetResponse = Static<typeof ReportTargetResponse>;

export const RecordAuditBody = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  actorUserId: Type.String({ minLength: 1 }),
  action: Type.String({ minLength: 1, maxLength: 64, examples: ['auth.login', 'credits.purchase'] }),
  resourceType: Type.String({ minLength: 1, maxLength: 64 }),
  resourceId: Type.String({ minLength: 1, maxLength: 128 }),
  requestId: Type.Optional(Type.String({ maxLength: 128 })),
  metadata: Type.Optional(Type.Unsafe<AuditMetadata>(Type.Record(Type.String(), Type.Unknown()))),
});
export type RecordAuditBody = Static<typeof RecordAuditBody>;

/** The event as catalog's audit log keeps it. */
export const RecordAuditResponse = Type.Object({ data: AuditEvent });
export type RecordAuditResponse = Static<typeof RecordAuditResponse>;

/** Report bodies carry up to 5000 items; they come from our own worker. */
const REPORT_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * Catalog's internal API: the crawler-worker claims and reports targets, billing's reconciler asks
 * where a reserved job stands, other services (auth's logins) record audit events.
 */
export const CatalogInternalRoutes = defineInternalRoutes({
  claimTarget: {
    method: 'POST',
    url: '/internal/catalog/jobs/:jobId/targets/:index/claim',
    access: 'internal',
    schema: { params: TargetParams, response: { 200: ClaimTargetResponse } },
  },
  reportTarget: {
    method: 'POST',
    url: '/internal/catalog/jobs/:jobId/targets/:index/result',
    access: 'internal',
    bodyLimit: REPORT_BODY_LIMIT,
    schema: { params: TargetParams, body: ReportTargetBody, response: { 200: ReportTargetResponse } },
  },
  jobState: {
    method: 'GET',
    url: '/internal/catalog/jobs/:jobId/state',
    access: 'internal',
    schema: { params: JobIdParams, response: { 200: JobStateResponse } },
  },
  /**
   * Billing's reconciler, before releasing a reservation whose job it never saw: a job that does not
   * exist is marked abandoned, and a create still storing it gives up (ADR 0003, orphaned holds).
   */
  abandonIfMissing: {
    method: 'POST',
    url: '/internal/catalog/jobs/:jobId/abandon-if-missing',
    access: 'internal',
    schema: { params: JobIdParams, response: { 200: JobStateResponse } },
  },
  recordAudit: {
    method: 'POST',
    url: '/internal/catalog/audit',
    access: 'internal',
    schema: { body: RecordAuditBody, response: { 201: RecordAuditResponse } },
  },
});

const R = CatalogInternalRoutes;

/** The paths the typed clients call, built from the same table as the routes. */
export const CatalogPaths = {
  claimTarget: (jobId: string, index: number) => pathOf(R.claimTarget, { jobId, index }),
  reportTarget: (jobId: string, index: number) => pathOf(R.reportTarget, { jobId, index }),
  jobState: (jobId: string) => pathOf(R.jobState, { jobId }),
  abandonIfMissing: (jobId: string) => pathOf(R.abandonIfMissing, { jobId }),
} as const;

export const AuditPaths = { record: R.recordAudit.url } as const;
