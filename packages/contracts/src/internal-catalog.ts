import { Type, type Static } from '@sinclair/typebox';

/** Catalog's internal API for the crawler-worker: claim a target, then report its outcome. */
export const CatalogPaths = {
  claimTarget: (jobId: string, index: number) => `/internal/catalog/jobs/${encodeURIComponent(jobId)}/targets/${index}/claim`,
  reportTarget: (jobId: string, index: number) => `/internal/catalog/jobs/${encodeURIComponent(jobId)}/targets/${index}/result`,
} as const;

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
