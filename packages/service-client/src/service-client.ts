import type { ServiceName } from '@crawl/contracts';
import { AppError, errors } from '@crawl/errors';
import { RequestAbortedError } from './abort.ts';
import { IDENTITY_HEADER, SERVICE_TOKEN_HEADER, type InternalTokens } from './internal-tokens.ts';
import type { ServiceRequest, ServiceTransport } from './service-transport.ts';

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
   * @returns the parsed JSON body of a 2xx answer.
   * @throws RequestAbortedError (499) when `request.signal` aborted the call.
   */
  async call<T>(request: ServiceRequest): Promise<T> {
    const headers: Record<string, string> = { [SERVICE_TOKEN_HEADER]: this.#tokens.signService(this.#from), accept: 'application/json' };
    if (request.identity) headers[IDENTITY_HEADER] = this.#tokens.signIdentity(request.identity);
    if (request.requestId) headers['x-request-id'] = request.requestId;
    let response;
    try {
      response = await this.#transport.send(request, headers);
    } catch (error) {
      if (error instanceof RequestAbortedError) throw error;
      throw Object.assign(errors.unavailable(`The ${this.target} service is unreachable`), { cause: error });
    }
    if (response.status >= 200 && response.status < 300) return response.body as T;
    const envelope = (response.body ?? {}) as EnvelopeLike;
    const code = typeof envelope.error?.code === 'string' ? envelope.error.code : undefined;
    const message = typeof envelope.error?.message === 'string' ? envelope.error.message : `The ${this.target} service answered ${response.status}`;
    const details = Array.isArray(envelope.error?.details) ? envelope.error.details : [];
    if (!code || response.status >= 500) {
      throw new AppError(response.status === 503 ? 'SERVICE_UNAVAILABLE' : 'BAD_GATEWAY', message, response.status === 503 ? 503 : 502);
    }
    throw new AppError(code, message, response.status, details);
  }
}
