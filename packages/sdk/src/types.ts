import type { AuthUser, Job as ContractJob, JobStatus, Target } from '@crawl/contracts';

export type {
  AuditEvent,
  AuthUser,
  BestsellerRecord,
  BlockKind,
  CreateJobBody,
  CreateMonitorBody,
  CreateScheduleBody,
  CategoryItemRecord,
  CreateWebhookBody,
  CreateDestinationBody,
  DeliveryManifest,
  Destination,
  DestinationAttempt,
  DestinationDelivery,
  DestinationTestResult,
  CreditDay,
  CreditPackage,
  DailyCredits,
  ExportFormat,
  HistoryPoint,
  HistoryResolution,
  HistoryValues,
  JobConfig,
  JobEstimate,
  JobResults,
  JobStatus,
  JobType,
  KeywordRanks,
  ListMeta,
  ListMonitorEventsQuery,
  ListMonitorsQuery,
  Monitor,
  TargetList,
  TargetListUpload,
  TargetListWithTargets,
  MonitorCredits,
  MonitorEvent,
  MonitorPausedReason,
  MonitorRule,
  MonitorRuleOp,
  MonitorRunError,
  MonitorType,
  MonitorStatus,
  ObservedSubject,
  OfferRecord,
  ProductHistory,
  ProductObservation,
  ProductRecord,
  ProductSubject,
  ProductTrackedField,
  Project,
  RankPoint,
  RankTrackedField,
  ResultRecord,
  ReviewRecord,
  Schedule,
  SearchRecord,
  SellerRecord,
  SuggestionRecord,
  Target,
  TargetCharges,
  TargetCoverage,
  TargetStatus,
  TrackedField,
  TrackedValue,
  UnchargedReason,
  UpdateMonitorBody,
  UpdateProjectBody,
  UpdateScheduleBody,
  UpdateWebhookBody,
  Usage,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '@crawl/contracts';

/**
 * Where a queued or running job stands in the fair scheduler: jobs and targets of the
 * organization ahead of it, and the estimated seconds until it is done. Servers that do not report
 * it leave `queue` out; every field is optional so a partial report still reads.
 */
export interface JobQueuePosition {
  position?: number;
  targetsAhead?: number;
  etaSeconds?: number | null;
}

/** A job as the SDK hands it out: targets always as `{value, status}` objects (see `normalizeJob`). */
export type Job = Omit<ContractJob, 'targets' | 'queue'> & { targets: Target[]; queue?: JobQueuePosition };

/** What a login, register or handoff exchange yields, whichever documented shape the server answered with. */
export interface Session {
  accessToken: string;
  tokenType: string;
  expiresIn: number;
  user: AuthUser;
}

/** Targets of a job by outcome: `done` succeeded, `failed` ended any other way, `pending` is still open. */
export interface JobProgress {
  total: number;
  done: number;
  failed: number;
  pending: number;
}

export const TERMINAL_STATUSES: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}
