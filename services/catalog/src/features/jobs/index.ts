/**
 * Jobs and their targets: the user-facing lifecycle (create, read, list, retry, cancel), the
 * worker-facing progress (claim, report), settlement with billing, the crawl queue, and what
 * billing's reconciler asks. The job document and its views are read by the features above it.
 */
export { AbandonedJobRepository } from './abandoned-job-repository.ts';
export { crawlQueue, JobDispatch } from './job-dispatch.ts';
export type { DestinationLookup } from './destination-check.ts';
export { assertWithinMaxCredits, creditsToReserve } from './job-credits.ts';
export { JobInput, type PreparedJob, type TargetCheck } from './job-input.ts';
export { JobLifecycle, type CreateOptions, type JobReason } from './job-lifecycle.ts';
export { targetsFromList, type TargetListSource } from './list-targets.ts';
export { crawlTaskId, isOpenTarget, isTerminalJob, toJobView, type JobDoc, type MonitorRun, type TargetDoc } from './job-model.ts';
export { JobReconciliation, type JobState } from './job-reconciliation.ts';
export { JobRepository } from './job-repository.ts';
export { jobRoutes, type JobRouteServices } from './job-routes.ts';
export { JobSettlement } from './job-settlement.ts';
export { TargetProgress } from './target-progress.ts';
