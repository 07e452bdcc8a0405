import { pathOf, type InternalRouteSpec, type ServiceName } from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import { currentLogContext } from '@crawl/logging';
import { RequestAbortedError } from './abort.ts';
import { IDENTITY_HEADER, SERVICE_TOKEN_HEADER, type InternalTokens } from './internal-tokens.ts';
import { retryAfterMs } from './retry-after.ts';
import type { InternalRouteInput, InternalRouteOutput } from './route-types.ts';
import type { ServiceRequest, ServiceTransport } from './service-transport.ts';
import { classifyTransportError, type TransportFailure } from './transport-failure.ts';

/** How one call to a route goes: on whose behalf, under which request id, whether it may be repeated. */
export type RouteCallOptions = Omit<ServiceRequest, 'method' | 'path' | 'query' | 'body'>;

interface EnvelopeLike {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

/**
 * A typed-call helper over a transport. Non-2xx answers become AppErrors with the callee's own
 * code and status, so "402 INSUFFICIENT_CREDITS" from billing reaches the user unchanged.
 */
export class ServiceClient {
  readonly target: ServiceName;
  readonly #from: ServiceName;
  readonly #transport: ServiceTransport;
  readonly #tokens: InternalTokens;

  constructor(options: { from: ServiceName; target: ServiceName; transport: ServiceTransport; tokens: InternalTokens }) {
    this.#from = options.from;
    this.target = options.target;
    this.#transport = options.transport;
    this.#tokens = options.tokens;
  }

  get transportKind(): ServiceTransport['kind'] {
    return this.#transport.kind;
  }

  /**
   * Calls a route of the contracts' internal tables: the method and path come from its spec, the
   * input and the answer are typed by its schemas, so neither end can drift from the other.
   */
  async route<const S extends InternalRouteSpec>(spec: S, input: InternalRouteInput<S>, options: RouteCallOptions = {}): Promise<InternalRouteOutput<S>> {
    const { params, query, body } = input as { params?: Record<string, string | number>; query?: ServiceRequest['query']; body?: unknown };
    const request: ServiceRequest = { ...options, method: spec.method, path: pathOf(spec, (params ?? {}) as never) };
    if (query !== undefined) request.query = query;
    if (body !== undefined) request.body = body;
    return (await this.call(request)) as InternalRouteOutput<S>;
  }

  /**
   * @returns the parsed JSON body of a 2xx answer, unread: a caller that uses it goes through `route`.
   * @throws RequestAbortedError (499) when `request.signal` aborted the call.
   */
  async call(request: ServiceRequest): Promise<unknown> {
    const headers: Record<string, string> = { [SERVICE_TOKEN_HEADER]: this.#tokens.signService(this.#from), accept: 'application/json' };
    if (request.identity) headers[IDENTITY_HEADER] = this.#tokens.signIdentity(request.identity);
    // The running request's or queued task's id when the caller names none: one id across services.
    const requestId = request.requestId ?? currentLogContext().reqId;
    if (requestId) headers['x-request-id'] = requestId;
    let response;
    try {
      response = await this.#transport.send(request, headers);
    } catch (error) {
      if (error instanceof RequestAbortedError) throw error;
      throw Object.assign(this.#failureAnswer(classifyTransportError(error, request.signal)), { cause: error });
    }
    if (response.status >= 200 && response.status < 300) return response.body;
    const envelope = (response.body ?? {}) as EnvelopeLike;
    const code = typeof envelope.error?.code === 'string' ? envelope.error.code : undefined;
    const message = typeof envelope.error?.message === 'string' ? envelope.error.message : `The ${this.target} service answered ${response.status}`;
    const details = Array.isArray(envelope.error?.details) ? envelope.error.details : [];
    const retryAfter = retryAfterSeconds(response.headers['retry-after']);
    if (response.status === 503) throw errors.unavailable(message, retryAfter);
    if (response.status === 504) throw errors.gatewayTimeout(message);
    if (!code || response.status >= 500) throw errors.badGateway(message);
    throw new AppError(code, message, response.status, details, retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
  }

  /** A callee that is down is a 503 with Retry-After for our caller too, a slow one 504, a garbled answer 502: never a 500. */
  #failureAnswer(failure: TransportFailure): AppError {
    if (failure === 'timeout') return errors.gatewayTimeout(`The ${this.target} service did not answer in time`);
    if (failure === 'invalid') return errors.badGateway(`The ${this.target} service answered unexpectedly`);
    return errors.unavailable(`The ${this.target} service is unreachable`);
  }
}

/** The callee's own Retry-After in whole seconds (at least 1); undefined when it sent none. */
function retryAfterSeconds(value: string | string[] | undefined): number | undefined {
  const ms = retryAfterMs(value, Date.now());
  return ms === undefined ? undefined : Math.max(1, Math.ceil(ms / 1000));
}
