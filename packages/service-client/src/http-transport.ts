import { Agent, request as undiciRequest } from 'undici';
import { abortError, abortableDelay } from './abort.ts';
import { safeJson } from './local-transport.ts';
import { withQuery, type ServiceRequest, type ServiceResponse, type ServiceTransport } from './service-transport.ts';

export interface HttpTransportOptions {
  baseUrl: string;
  timeoutMs?: number;
  /** Extra tries for idempotent requests after a network error or a 502/503/504. */
  retries?: number;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

/**
 * Calls a service in another process over HTTP, with timeouts and bounded retries for idempotent
 * calls. A request's `signal` aborts the HTTP request (the callee sees its client leave) and ends
 * the retries.
 */
export class HttpTransport implements ServiceTransport {
  readonly kind = 'http' as const;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #agent: Agent;

  constructor(options: HttpTransportOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#retries = options.retries ?? 2;
    this.#agent = new Agent({ connectTimeout: 3_000, keepAliveTimeout: 30_000, connections: 64 });
  }

  async send(request: ServiceRequest, headers: Record<string, string>): Promise<ServiceResponse> {
    const tries = request.idempotent || request.method === 'GET' ? 1 + this.#retries : 1;
    const signal = request.signal;
    const what = `${request.method} ${request.path}`;
    let lastError: unknown;
    for (let attempt = 1; attempt <= tries; attempt += 1) {
      if (signal?.aborted) throw abortError(signal, what);
      try {
        const timeout = request.timeoutMs ?? this.#timeoutMs;
        const response = await undiciRequest(this.#baseUrl + withQuery(request.path, request.query), {
          method: request.method,
          headers: request.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          dispatcher: this.#agent,
          headersTimeout: timeout,
          bodyTimeout: timeout,
          ...(signal ? { signal } : {}),
        });
        const text = await response.body.text();
        const result: ServiceResponse = { status: response.statusCode, headers: response.headers, body: text ? safeJson(text) : undefined };
        if (attempt < tries && RETRYABLE_STATUS.has(result.status)) {
          await pause(attempt, signal, what);
          continue;
        }
        return result;
      } catch (error) {
        if (signal?.aborted) throw abortError(signal, what);
        lastError = error;
        if (attempt < tries) await pause(attempt, signal, what);
      }
    }
    throw lastError;
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

function pause(attempt: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return abortableDelay(100 * 2 ** (attempt - 1) + Math.random() * 50, signal, what);
}
