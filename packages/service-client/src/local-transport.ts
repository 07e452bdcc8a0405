import { asInProcessCall } from '@crawl/tracing';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { abortError } from './abort.ts';
import { withQuery, type ServiceRequest, type ServiceResponse, type ServiceTransport } from './service-transport.ts';

/**
 * Same-process calls go through Fastify's `inject`: the full route pipeline, no socket. A request's
 * `signal` is handed to `inject` (it cancels a request whose body is still being read) and stops the
 * wait for the answer; a handler already running finishes on its own.
 */
export class LocalTransport implements ServiceTransport {
  readonly kind = 'local' as const;
  readonly #app: () => FastifyInstance;

  constructor(app: () => FastifyInstance) {
    this.#app = app;
  }

  async send(request: ServiceRequest, headers: Record<string, string>): Promise<ServiceResponse> {
    const signal = request.signal;
    const what = `${request.method} ${request.path}`;
    if (signal?.aborted) throw abortError(signal, what);
    // Started inside asInProcessCall (inject's promise form would only start when awaited, outside it).
    const injected = asInProcessCall(
      () =>
        new Promise<LightMyRequestResponse>((resolve, reject) => {
          this.#app().inject(
            {
              method: request.method,
              url: withQuery(request.path, request.query),
              headers: request.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
              payload: request.body === undefined ? undefined : JSON.stringify(request.body),
              ...(signal ? { signal } : {}),
            },
            (error, response) => (error ? reject(error) : resolve(response as LightMyRequestResponse)),
          );
        }),
    );
    const response = signal ? await untilAborted(injected, signal, what) : await injected;
    const text = response.body;
    return { status: response.statusCode, headers: response.headers as ServiceResponse['headers'], body: text ? safeJson(text) : undefined };
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal, what));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? abortError(signal, what) : error);
      },
    );
  });
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
