import type { BlockKind, Job, TargetCoverage, JobConfig, JobStatus, JobType, Target, TargetStatus, UnchargedReason } from '@crawl/contracts';
import type { Document } from '@crawl/storage';
import { fieldCoverage } from './field-coverage.ts';

export interface TargetDoc {
  /** The target as submitted (trimmed). */
  value: string;
  /** The resolved ASIN (details, reviews and offers jobs). */
  asin?: string;
  /** The resolved identifier of the other types' targets (a browse node id, a seller id, a prefix). */
  key?: string;
  status: TargetStatus;
  reason?: string;
  /** With reason `blocked`: the kind of page served instead. */
  blockKind?: BlockKind;
  /** On a success: its records are delivered, but the target is not charged, for this reason. */
  uncharged?: UnchargedReason;
  /** Why the target failed, or why it is uncharged, as the worker said it. */
  message?: string;
  resultCount?: number;
  /** What share of the marketplace's records the target fetched (reviews). */
  coverage?: TargetCoverage;
  /** The billable units the worker reported (types billed per page fetched). */
  billableUnits?: number;
  /** A success answered from the shared page cache: when its page was fetched (charged the cached price). */
  cachedAt?: string;
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
  /** As the create checked it (job-input.ts): the typed options and any extra keys the caller kept. */
  config: JobConfig;
  unitsPerTarget: number;
  creditsReserved: number;
  /** The create body's cap on the reservation, when it had one. */
  maxCredits?: number;
  resultCount: number;
  resultSetId?: string;
  createdBy: string;
  retryOf?: string;
  scheduleId?: string;
  /** The monitor this job is a run of, and which kind of run. */
  monitorId?: string;
  monitorRun?: MonitorRun;
  startedAt?: string;
  completedAt?: string;
  createdAt: string;
  updatedAt: string;
  /** True once billing confirmed the settlement. */
  settled: boolean;
  /** Lease taken by whoever is settling, so concurrent finishers never both call billing. */
  settleClaimedAt?: string;
  settledAt?: string;
  /** What billing was told: `succeeded` are the charged successes, `uncharged` the others (absent on older jobs). */
  settlement?: { succeeded: number; failed: number; cancelled: number; uncharged?: number };
  /** Records that have each field, summed over the reports (field-coverage.ts). */
  fieldCounts?: Record<string, number>;
}

/** A monitor's job: a scheduled run, a run asked for now, or a one-target confirmation of a rule's change. */
export type MonitorRun = NonNullable<Job['monitorRun']>;

export const JOBS_COLLECTION = 'jobs';

export const isTerminalJob = (status: string): boolean => status === 'completed' || status === 'failed' || status === 'cancelled';
export const isOpenTarget = (status: string): boolean => status === 'pending' || status === 'running';

/**
 * The queue id of one target's task. The public job shows target 0's as `bullJobId`; documents
 * stored before it was derived still carry that field, which nothing reads.
 */
export const crawlTaskId = (jobId: string, targetIndex: number): string => `${jobId}-${targetIndex}`;

export const resultSetIdFor = (jobId: string): string => `rs_${jobId}`;

export interface TargetCounts {
  /** Every success, charged or not: one makes the job `completed`. */
  succeeded: number;
  /** The successes among `succeeded` delivered without charge. */
  uncharged: number;
  failed: number;
  cancelled: number;
  open: number;
}

export function countTargets(targets: readonly TargetDoc[]): TargetCounts {
  const counts = { succeeded: 0, uncharged: 0, failed: 0, cancelled: 0, open: 0 };
  for (const target of targets) {
    if (target.status === 'success') {
      counts.succeeded += 1;
      if (target.uncharged !== undefined) counts.uncharged += 1;
    } else if (target.status === 'failed') counts.failed += 1;
    else if (target.status === 'cancelled') counts.cancelled += 1;
    else counts.open += 1;
  }
  return counts;
}

/**
 * The billable units of a job's charged targets: what each reported (pages that yielded records),
 * else the units held for it.
 */
export function chargedUnits(job: Pick<JobDoc, 'targets' | 'unitsPerTarget'>): number {
  let units = 0;
  for (const target of job.targets) {
    if (target.status === 'success' && target.uncharged === undefined) units += Math.min(target.billableUnits ?? job.unitsPerTarget, job.unitsPerTarget);
  }
  return units;
}

/** The units of a job's charged targets answered from the shared page cache (captured at the cached price). */
export function cachedUnits(job: Pick<JobDoc, 'targets' | 'unitsPerTarget'>): number {
  let units = 0;
  for (const target of job.targets) {
    if (target.status === 'success' && target.uncharged === undefined && target.cachedAt !== undefined) {
      units += Math.min(target.billableUnits ?? job.unitsPerTarget, job.unitsPerTarget);
    }
  }
  return units;
}

export function toJobView(doc: JobDoc): Job {
  const view: Job = {
    id: doc._id,
    projectId: doc.projectId,
    organizationId: doc.organizationId,
    type: doc.type,
    status: doc.status,
    targets: doc.targets.map(toTargetView),
    config: doc.config,
    creditsReserved: doc.creditsReserved,
    ...(doc.maxCredits !== undefined ? { maxCredits: doc.maxCredits } : {}),
    bullJobId: crawlTaskId(doc._id, 0),
    resultCount: doc.resultCount,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
  if (doc.resultSetId) view.resultSetId = doc.resultSetId;
  if (doc.retryOf) view.retryOf = doc.retryOf;
  if (doc.scheduleId) view.scheduleId = doc.scheduleId;
  if (doc.monitorId) view.monitorId = doc.monitorId;
  if (doc.monitorRun) view.monitorRun = doc.monitorRun;
  if (doc.startedAt) view.startedAt = doc.startedAt;
  if (doc.completedAt) view.completedAt = doc.completedAt;
  const coverage = fieldCoverage(doc.type, doc.fieldCounts, doc.resultCount);
  if (coverage) view.fieldCoverage = coverage;
  const counts = countTargets(doc.targets);
  view.charges = { chargedTargets: counts.succeeded - counts.uncharged, unchargedTargets: counts.uncharged };
  return view;
}

/** `charged` only on successes: a failed or open target is neither charged nor delivered without charge. */
function toTargetView(t: TargetDoc): Target {
  return {
    value: t.value,
    status: t.status,
    ...(t.asin !== undefined ? { asin: t.asin } : {}),
    ...(t.key !== undefined ? { key: t.key } : {}),
    ...(t.reason !== undefined ? { reason: t.reason } : {}),
    ...(t.resultCount !== undefined ? { resultCount: t.resultCount } : {}),
    ...(t.status === 'success' ? { charged: t.uncharged === undefined } : {}),
    ...(t.uncharged !== undefined ? { uncharged: t.uncharged } : {}),
    ...(t.blockKind !== undefined ? { blockKind: t.blockKind } : {}),
    ...(t.coverage !== undefined ? { coverage: t.coverage } : {}),
    ...(t.cachedAt !== undefined ? { cachedAt: t.cachedAt } : {}),
    ...(t.message !== undefined ? { message: t.message } : {}),
  };
}
