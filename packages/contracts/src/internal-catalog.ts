import { Type, type Static } from '@sinclair/typebox';

/** Catalog's internal API for the crawler-worker: claim a target, then report its outcome. */
export const CatalogPaths = {
  claimTarget: (jobId: string, index: number) => `/internal/catalog/jobs/${encodeURIComponent(jobId)}/targets/${index}/claim`,
  reportTarget: (jobId: string, index: number) => `/internal/catalog/jobs/${encodeURIComponent(jobId)}/targets/${index}/result`,
  /** Billing's reconciler asks whether a reserved job exists and where it stands. */
  jobState: (jobId: string) => `/internal/catalog/jobs/${encodeURIComponent(jobId)}/state`,
} as const;

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
  message: Type.Optional(Type.String({ maxLength: 1000 })),
  items: Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 5000 }),
  /** Upstream requests this target took (pages and retries), for observability. */
  requests: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ReportTargetBody = Static<typeof ReportTargetBody>;

export const ReportTargetResponse = Type.Object({
  data: Type.Object({
    jobStatus: Type.String(),
    finished: Type.Boolean(),
  }),
});
export type ReportTargetResponse = Static<typeof ReportTargetResponse>;

/** Other services record audit events (e.g. auth's logins) in catalog's audit log. */
export const AuditPaths = { record: '/internal/catalog/audit' } as const;

export const RecordAuditBody = Type.Object({
  organizationId: Type.String({ minLength: 1 }),
  actorUserId: Type.String({ minLength: 1 }),
  action: Type.String({ minLength: 1, maxLength: 64, examples: ['auth.login', 'credits.purchase'] }),
  resourceType: Type.String({ minLength: 1, maxLength: 64 }),
  resourceId: Type.String({ minLength: 1, maxLength: 128 }),
  requestId: Type.Optional(Type.String({ maxLength: 128 })),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type RecordAuditBody = Static<typeof RecordAuditBody>;
