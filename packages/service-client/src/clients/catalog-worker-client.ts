import { CatalogInternalRoutes, type ClaimTargetResponse, type JobStateResponse, type ReportTargetBody, type ReportTargetResponse } from '@crawl/contracts';
import type { ServiceClient } from '../service-client.ts';

interface CallOptions {
  /** Stops the call (and the HTTP request) when it aborts. */
  signal?: AbortSignal;
}

const R = CatalogInternalRoutes;

/** The calls the crawler-worker makes to catalog for each target it works on. */
export class CatalogWorkerClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async claimTarget(jobId: string, targetIndex: number, context: CallOptions = {}): Promise<ClaimTargetResponse['data']> {
    const response = await this.#client.route(R.claimTarget, { params: { jobId, index: targetIndex } }, { idempotent: true, ...context });
    return response.data;
  }

  async reportTarget(jobId: string, targetIndex: number, body: ReportTargetBody, context: CallOptions = {}): Promise<ReportTargetResponse['data']> {
    const response = await this.#client.route(
      R.reportTarget,
      { params: { jobId, index: targetIndex }, body },
      { idempotent: true, timeoutMs: 30_000, ...context },
    );
    return response.data;
  }
}

/** Billing's view of catalog: does a reserved job exist, and is it finished? */
export class CatalogJobStateClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async jobState(jobId: string, context: CallOptions = {}): Promise<JobStateResponse['data']> {
    return (await this.#client.route(R.jobState, { params: { jobId } }, context)).data;
  }

  /**
   * The job's state, or `exists: false` with the promise that it never will exist: catalog marks
   * the id abandoned first, so a create still storing it gives up. Idempotent.
   */
  async abandonIfMissing(jobId: string, context: CallOptions = {}): Promise<JobStateResponse['data']> {
    return (await this.#client.route(R.abandonIfMissing, { params: { jobId } }, { idempotent: true, ...context })).data;
  }
}
