import {
  BillingPaths,
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
} from '@crawl/contracts';
import type { ServiceClient } from '../service-client.ts';

interface CallContext {
  requestId?: string;
  identity?: Identity | null;
  /** The caller's request signal: the call stops when the client that caused it goes away. */
  signal?: AbortSignal;
}

/** Billing's internal API as typed calls. Errors arrive as AppErrors with billing's code (402, 403…). */
export class BillingClient {
  readonly #client: ServiceClient;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  async openAccount(body: OpenAccountBody, context: CallContext = {}): Promise<BalanceView> {
    const response = await this.#client.call<{ data: BalanceView }>({ method: 'POST', path: BillingPaths.openAccount, body, idempotent: true, ...context });
    return response.data;
  }

  async reserve(body: ReserveBody, context: CallContext = {}): Promise<Reservation> {
    const response = await this.#client.call<{ data: Reservation }>({ method: 'POST', path: BillingPaths.reserve, body, idempotent: true, ...context });
    return response.data;
  }

  async release(jobId: string, body: ReleaseBody, context: CallContext = {}): Promise<Reservation> {
    const response = await this.#client.call<{ data: Reservation }>({ method: 'POST', path: BillingPaths.release(jobId), body, idempotent: true, ...context });
    return response.data;
  }

  async settle(body: SettleBody, context: CallContext = {}): Promise<Settlement> {
    const response = await this.#client.call<{ data: Settlement }>({ method: 'POST', path: BillingPaths.settle, body, idempotent: true, ...context });
    return response.data;
  }

  async consumeExport(body: ConsumeExportBody, context: CallContext = {}): Promise<ExportAllowance> {
    const response = await this.#client.call<{ data: ExportAllowance }>({ method: 'POST', path: BillingPaths.consumeExport, body, ...context });
    return response.data;
  }
}
