import type { Job, JobStatus, JobType, TargetStatus } from '@crawl/contracts';
import type { Document } from '@crawl/storage';
import { fieldCoverage } from './field-coverage.ts';

export interface TargetDoc {
  /** The target as submitted (trimmed). */
  value: string;
  /** The resolved ASIN (details jobs). */
  asin?: string;
  status: TargetStatus;
  reason?: string;
  message?: string;
  resultCount?: number;
  startedAt?: string;
  finishedAt?: string;
  /** Which report may be applied now (JobRepository.takeReportLease), and since when. */
  reportToken?: string;
  reportingAt?: string;
}

export interface JobDoc extends Document {
  organizationId: string;
  projectId: string;
  type: JobType;
  status: JobStatus;
  targets: TargetDoc[];
  config: Record<string, unknown>;
  unitsPerTarget: number;
  creditsReserved: number;
  bullJobId: string;
  resultCount: number;
  resultSetId?: string;
  createdBy: string;
  retryOf?: string;
  scheduleId?: string;
  startedAt?: string;
  completedAt?: string;
  createdAt: string;
  updatedAt: string;
  /** True once billing confirmed the settlement. */
  settled: boolean;
  /** Lease taken by whoever is settling, so concurrent finishers never both call billing. */
  settleClaimedAt?: string;
  settledAt?: string;
  settlement?: { succeeded: number; failed: number; cancelled: number };
  /** Records that have each field, summed over the reports (field-coverage.ts). */
  fieldCounts?: Record<string, number>;
}

export const JOBS_COLLECTION = 'jobs';

export const isTerminalJob = (status: string): boolean => status === 'completed' || status === 'failed' || status === 'cancelled';
export const isOpenTarget = (status: string): boolean => status === 'pending' || status === 'running';

/** The queue id of one target's task; the id of target 0's task is the job's `bullJobId`. */
export const crawlTaskId = (jobId: string, targetIndex: number): string => `${jobId}-${targetIndex}`;

export const resultSetIdFor = (jobId: string): string => `rs_${jobId}`;

export function countTargets(targets: readonly TargetDoc[]): { succeeded: number; failed: number; cancelled: number; open: number } {
  const counts = { succeeded: 0, failed: 0, cancelled: 0, open: 0 };
  for (const target of targets) {
    if (target.status === 'success') counts.succeeded += 1;
    else if (target.status === 'failed') counts.failed += 1;
    else if (target.status === 'cancelled') counts.cancelled += 1;
    else counts.open += 1;
  }
  return counts;
}

export function toJobView(doc: JobDoc): Job {
  const view: Job = {
    id: doc._id,
    projectId: doc.projectId,
    organizationId: doc.organizationId,
    type: doc.type,
    status: doc.status,
    targets: doc.targets.map((t) => ({
      value: t.value,
      status: t.status,
      ...(t.asin !== undefined ? { asin: t.asin } : {}),
      ...(t.reason !== undefined ? { reason: t.reason } : {}),
      ...(t.resultCount !== undefined ? { resultCount: t.resultCount } : {}),
    })),
    config: doc.config,
    creditsReserved: doc.creditsReserved,
    bullJobId: doc.bullJobId,
    resultCount: doc.resultCount,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
  if (doc.resultSetId) view.resultSetId = doc.resultSetId;
  if (doc.retryOf) view.retryOf = doc.retryOf;
  if (doc.scheduleId) view.scheduleId = doc.scheduleId;
  if (doc.startedAt) view.startedAt = doc.startedAt;
  if (doc.completedAt) view.completedAt = doc.completedAt;
  const coverage = fieldCoverage(doc.type, doc.fieldCounts, doc.resultCount);
  if (coverage) view.fieldCoverage = coverage;
  return view;
}
