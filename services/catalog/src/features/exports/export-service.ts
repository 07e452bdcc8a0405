import type { Readable } from 'node:stream';
import type { ExportFormat, Identity } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import type { AuditLog } from '../audit/index.ts';
import { isTerminalJob, type JobDoc, type JobLifecycle } from '../jobs/index.ts';
import type { ResultJob, ResultStore } from '../results/index.ts';
import type { BillingPort } from '../shared/ports.ts';
import type { CatalogResources } from '../shared/resources.ts';
import { csvExport, jsonTextExport } from './export-stream.ts';

/**
 * The export file of a job's results, streamed in results order along the `(jobId, position)`
 * index. JSON passes the stored item JSON through unparsed. CSV takes its header from the
 * per-target column records and reads the rows once; for rows written before those records
 * existed it collects the names in a first pass instead (same output either way).
 */
export async function exportJobResults(results: ResultStore, job: ResultJob, format: ExportFormat): Promise<Readable> {
  if (format === 'json') return jsonTextExport(() => results.itemJson(job._id));
  const columns = await results.csvColumns(job);
  return csvExport(() => results.items(job._id), columns ?? undefined);
}

/**
 * Exporting a finished job: the caller's job, counted against the organization's exports in
 * billing, audited, then its file. Everything that can fail with an envelope happens before the
 * first byte of the file.
 */
export class JobExports {
  readonly #jobs: Pick<JobLifecycle, 'getOwned'>;
  readonly #results: ResultStore;
  readonly #audit: AuditLog;
  readonly #billing: () => BillingPort;

  constructor(resources: CatalogResources, parts: { jobs: Pick<JobLifecycle, 'getOwned'>; results: ResultStore; audit: AuditLog }) {
    this.#jobs = parts.jobs;
    this.#results = parts.results;
    this.#audit = parts.audit;
    this.#billing = resources.billing;
  }

  async open(
    identity: Identity,
    jobId: string,
    format: ExportFormat,
    request: { requestId: string; signal?: AbortSignal | undefined },
  ): Promise<{ job: JobDoc; file: Readable }> {
    const job = await this.#jobs.getOwned(identity.organizationId, jobId);
    // A job still crawling would export a partial file and spend an export on it: refused, not counted.
    if (!isTerminalJob(job.status)) {
      throw errors.conflict(`Job is still ${job.status}: export it once it has finished (completed, failed or cancelled); this request was not counted`, [
        { reason: 'JOB_NOT_FINISHED', status: job.status },
      ]);
    }
    await this.#billing().consumeExport(
      { organizationId: identity.organizationId, jobId: job._id, format },
      { requestId: request.requestId, identity, ...(request.signal ? { signal: request.signal } : {}) },
    );
    await this.#audit.recordQuietly({
      organizationId: identity.organizationId,
      actorUserId: identity.userId,
      action: 'job.export',
      resourceType: 'job',
      resourceId: job._id,
      requestId: request.requestId,
      metadata: { format },
    });
    return { job, file: await exportJobResults(this.#results, job, format) };
  }
}
