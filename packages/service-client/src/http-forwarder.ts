import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Agent } from 'undici';
import { clientLeft, RequestAbortedError } from './abort.ts';
import { ForwardExchange } from './forward-exchange.ts';
import { ForwardError } from './forward-error.ts';

export { endToEndHeaders, upstreamRequestHeaders } from './forwarded-headers.ts';
export type { ForwardedResponse } from './forward-exchange.ts';
export { ForwardError, type ForwardFailure } from './forward-error.ts';

export interface HttpForwarderOptions {
  /** Connections per upstream origin. Default 128. */
  connections?: number;
  /** How long the upstream may take to send its status and headers. Default 30 s. */
  headersTimeoutMs?: number;
  /** Longest silence while the upstream streams its body (exports stream for long). Default 300 s. */
  bodyTimeoutMs?: number;
  /** Answers of known size up to this many bytes are read whole; larger ones stream. Default 64 KiB. */
  wholeAnswerBytes?: number;
}

export interface ForwardedRequest {
  method: string;
  /** Path and query string. */
  path: string;
  /** Sent as they are: build them with `upstreamRequestHeaders`. */
  headers: Record<string, string | string[]>;
  /** A stream (an upload) is sent as it is read, chunked. */
  body?: string | Readable;
}

/**
 * Sends a request to a service in another process and hands its answer back, for the gateway:
 * a small answer of known size (most of the API) whole, anything else (exports, event streams)
 * as a stream. When the gateway's client goes away before its answer is complete, the upstream
 * request is aborted, so the upstream sees its client leave too.
 *
 * Built on undici's dispatcher rather than `request()`: no body stream, promise chain and abort
 * signal per request for an answer that fits in a packet or two (half the gateway's cost of a
 * forward; docs/benchmarks.md, "Read path").
 */
export class HttpForwarder {
  readonly #agent: Agent;
  readonly #headersTimeoutMs: number;
  readonly #bodyTimeoutMs: number;
  readonly #wholeAnswerBytes: number;

  constructor(options: HttpForwarderOptions = {}) {
    this.#headersTimeoutMs = options.headersTimeoutMs ?? 30_000;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? 300_000;
    this.#wholeAnswerBytes = options.wholeAnswerBytes ?? 64 * 1024;
    this.#agent = new Agent({ connections: options.connections ?? 128, connectTimeout: 3_000, keepAliveTimeout: 30_000 });
  }

  /**
   * @param origin `http://host:port` (a path on it is ignored).
   * @param client The answer to the gateway's client: when it closes unfinished, the forward stops.
   * @throws ForwardError, whose `failure` says why.
   */
  forward(origin: string, request: ForwardedRequest, client: ServerResponse) {
    if (clientLeft(client)) {
      return Promise.reject(new ForwardError('aborted', new RequestAbortedError(`${request.method} ${request.path} was cancelled`)));
    }
    const exchange = new ForwardExchange(client, this.#wholeAnswerBytes);
    this.#agent.dispatch(
      {
        origin,
        path: request.path,
        method: request.method as 'GET',
        headers: request.headers,
        body: request.body ?? null,
        headersTimeout: this.#headersTimeoutMs,
        bodyTimeout: this.#bodyTimeoutMs,
      },
      exchange,
    );
    return exchange.response;
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
