import type { TransportFailure } from './transport-failure.ts';

/** Why a forward failed, for the gateway to answer with. */
export type ForwardFailure = TransportFailure;

export class ForwardError extends Error {
  readonly failure: ForwardFailure;
  constructor(failure: ForwardFailure, cause: unknown) {
    super(`Forwarding failed (${failure})${cause instanceof Error ? `: ${cause.message}` : ''}`, { cause });
    this.name = 'ForwardError';
    this.failure = failure;
  }
}
