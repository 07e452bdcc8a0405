import type { Collection, DocumentStore } from '@crawl/storage';
import { migrationsOf, type MigrationDoc } from '../../migrations.ts';
import type { JobDoc } from './job-model.ts';

export const JOB_COUNTS_COLLECTION = 'project_job_counts';
const COUNTS_SEEDED = 'jobs.project_counts';

interface JobCountDoc {
  _id: string;
  organizationId: string;
  projectId: string;
  jobs: number;
}

const countId = (organizationId: string, projectId: string): string => `${organizationId}:${projectId}`;

/**
 * How many jobs each project holds, kept next to the jobs so an unfiltered list answers its
 * `meta.total` with one key read instead of counting every job of the project (a count walks
 * one index entry per job). `recordCreated` runs right after each job insert; the one job ever
 * deleted (a create that lost to billing's orphan release, before anyone saw it) is taken back
 * with `recordRemoved`.
 *
 * Without multi-document transactions a crash between the insert and the increment leaves the
 * figure one short; `reconcile` (run at every start, before requests are served) recounts each
 * project and corrects it, changing a figure only if no increment landed while it counted.
 */
export class JobCountRepository {
  readonly #counts: Collection<JobCountDoc>;
  readonly #jobs: Collection<JobDoc>;
  readonly #migrations: Collection<MigrationDoc>;

  /** @param jobs the job repository's collection: the figures are counted from it. */
  constructor(store: DocumentStore, jobs: Collection<JobDoc>) {
    this.#counts = store.collection<JobCountDoc>(JOB_COUNTS_COLLECTION);
    this.#jobs = jobs;
    this.#migrations = migrationsOf(store);
  }

  /** Whether every project already had its figure once (data from before figures is seeded). */
  async seeded(): Promise<boolean> {
    return (await this.#migrations.findOne({ _id: COUNTS_SEEDED })) !== null;
  }

  async markSeeded(now: string): Promise<void> {
    await this.#migrations.updateOne({ _id: COUNTS_SEEDED }, { $set: { completedAt: now } }, { upsert: true });
  }

  async recordCreated(organizationId: string, projectId: string): Promise<void> {
    await this.#counts.updateOne(
      { _id: countId(organizationId, projectId) },
      { $setOnInsert: { organizationId, projectId }, $inc: { jobs: 1 } },
      { upsert: true },
    );
  }

  async recordRemoved(organizationId: string, projectId: string): Promise<void> {
    await this.#counts.updateOne({ _id: countId(organizationId, projectId) }, { $inc: { jobs: -1 } });
  }

  /** The project's job count; counted (and remembered) when the project has no figure yet. */
  async jobsIn(organizationId: string, projectId: string): Promise<number> {
    const kept = await this.#counts.findOne({ _id: countId(organizationId, projectId) });
    if (kept) return kept.jobs;
    return this.#recount(organizationId, projectId, null);
  }

  /**
   * Recounts each project (one index walk each). A figure that moved while it was being counted
   * is left as it is: a create was running, which keeps it right. @returns figures corrected.
   */
  async reconcile(projects: AsyncIterable<{ _id: string; organizationId: string }>): Promise<number> {
    let corrected = 0;
    for await (const project of projects) {
      const kept = await this.#counts.findOne({ _id: countId(project.organizationId, project._id) });
      const expected = kept?.jobs ?? null;
      if ((await this.#recount(project.organizationId, project._id, expected)) !== (expected ?? 0)) corrected += 1;
    }
    return corrected;
  }

  /** Counts the project's jobs and stores the figure if it still reads `expected` (null: absent). */
  async #recount(organizationId: string, projectId: string, expected: number | null): Promise<number> {
    const counted = await this.#jobs.count({ organizationId, projectId });
    if (counted === expected) return counted;
    const _id = countId(organizationId, projectId);
    if (expected === null) {
      const stored = await this.#counts.updateOne({ _id }, { $setOnInsert: { organizationId, projectId, jobs: counted } }, { upsert: true });
      return stored?.jobs ?? counted;
    }
    await this.#counts.updateOne({ _id, jobs: expected }, { $set: { jobs: counted } });
    return counted;
  }
}
