import { ACTIVE_JOB_STATUSES } from '@crawl/contracts';
import type { Collection, DocumentStore } from '@crawl/storage';
import { JOBS_COLLECTION, type JobDoc } from '../jobs/job-model.ts';

const ACTIVE = [...ACTIVE_JOB_STATUSES];
/** An organization with more active jobs than this is estimated from its oldest ones. */
const MAX_ACTIVE_JOBS_READ = 500;

/** An organization's queued and running jobs, oldest first: its line at the fair dispatcher. */
export class ActiveJobRepository {
  readonly #jobs: Collection<JobDoc>;

  constructor(store: DocumentStore) {
    this.#jobs = store.collection<JobDoc>(JOBS_COLLECTION);
  }

  async init(): Promise<void> {
    await this.#jobs.ensureIndexes([{ keys: { organizationId: 1, status: 1, createdAt: 1, _id: 1 }, name: 'org_status_created_id' }]);
  }

  ofOrganization(organizationId: string): Promise<JobDoc[]> {
    return this.#jobs.find({ organizationId, status: { $in: ACTIVE } }, { sort: { createdAt: 1, _id: 1 }, limit: MAX_ACTIVE_JOBS_READ });
  }
}
