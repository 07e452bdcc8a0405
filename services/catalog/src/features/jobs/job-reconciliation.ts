import type { JobStateResponse } from '@crawl/contracts';
import type { Clock } from '@crawl/clock';
import type { CatalogResources } from '../shared/resources.ts';
import type { AbandonedJobRepository } from './abandoned-job-repository.ts';
import type { JobRepository } from './job-repository.ts';

export type JobState = JobStateResponse['data'];

/**
 * What billing's reconciler asks about a job whose reservation it holds: where the job stands, and
 * before it releases the credits of one it never saw, the promise that it never will exist (the
 * other half of the protocol a create follows with AbandonedJobRepository).
 */
export class JobReconciliation {
  readonly #jobs: JobRepository;
  readonly #abandoned: AbandonedJobRepository;
  readonly #clock: Clock;

  constructor(resources: CatalogResources, parts: { jobs: JobRepository; abandoned: AbandonedJobRepository }) {
    this.#jobs = parts.jobs;
    this.#abandoned = parts.abandoned;
    this.#clock = resources.clock;
  }

  async state(jobId: string): Promise<JobState> {
    const job = await this.#jobs.findById(jobId);
    if (!job) return { exists: false };
    return { exists: true, status: job.status, organizationId: job.organizationId, settled: job.settled };
  }

  /** The job's state, or `exists: false` after marking the id, so that a create still storing it takes it back. */
  async abandonIfMissing(jobId: string): Promise<JobState> {
    const state = await this.state(jobId);
    if (state.exists) return state;
    // Only the look after the mark may answer "missing": a create that stored the job before it is seen now.
    await this.#abandoned.mark(jobId, this.#clock.now().toISOString());
    return this.state(jobId);
  }
}
