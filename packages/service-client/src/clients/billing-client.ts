import {
  BillingInternalRoutes,
  type BalanceView,
  type ConsumeExportBody,
  type ExportAllowance,
  type Identity,
  type OpenAccountBody,
  type ReleaseBody,
  type Reservation,
  type ReserveBody,
  type SettleBody,
  type Settlement,
  type Usage,
} from '@crawl/contracts';
import type { ServiceClient } from '../service-client.ts';

interface CallContext {
  requestId?: string;
  identity?: Identity | null;
  /** The caller's request signal: the call stops when the client that caused it goes away. */
  signal?: AbortSignal;
}

const R = BillingInternalRoutes;

/** Billing's internal API as typed calls. Errors arrive as AppErrors with billing's code (402, 403…). */
export class BillingClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async openAccount(body: OpenAccountBody, context: CallContext = {}): Promise<BalanceView> {
    return (await this.#client.route(R.openAccount, { body }, { idempotent: true, ...context })).data;
  }

  async reserve(body: ReserveBody, context: CallContext = {}): Promise<Reservation> {
    return (await this.#client.route(R.reserve, { body }, { idempotent: true, ...context })).data;
  }

  async release(jobId: string, body: ReleaseBody, context: CallContext = {}): Promise<Reservation> {
    return (await this.#client.route(R.release, { params: { jobId }, body }, { idempotent: true, ...context })).data;
  }

  async settle(body: SettleBody, context: CallContext = {}): Promise<Settlement> {
    return (await this.#client.route(R.settle, { body }, { idempotent: true, ...context })).data;
  }

  /** The organization's month: limits, counters, remaining and credits (what a job estimate reads). */
  async usage(organizationId: string, context: CallContext = {}): Promise<Usage> {
    return (await this.#client.route(R.usage, { params: { organizationId } }, context)).data;
  }

  async consumeExport(body: ConsumeExportBody, context: CallContext = {}): Promise<ExportAllowance> {
    return (await this.#client.route(R.consumeExport, { body }, context)).data;
  }
}
