import type { Readable } from 'node:stream';
import { traceHeaderNames } from '@crawl/tracing';
import { Agent } from 'undici';
import { abortError } from './abort.ts';
import { classifyTransportError, type TransportFailure } from './transport-failure.ts';

export interface HttpForwarderOptions {
  /** Connections per upstream origin. Default 128. */
  connections?: number;
  /** How long the upstream may take to send its status and headers. Default 30 s. */
  headersTimeoutMs?: number;
  /** Longest silence while the upstream streams its body (exports stream for long). Default 300 s. */
  bodyTimeoutMs?: number;
}

export interface ForwardedRequest {
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body?: string;
  /** Aborts the upstream request: the upstream sees its client go away. */
  signal: AbortSignal;
}

export interface ForwardedResponse {
  status: number;
  /** Without hop-by-hop headers. */
  headers: Record<string, string | string[]>;
  /** Streamed as it arrives; destroy it to stop reading. */
  body: Readable;
}

/** Why a forward failed, for the gateway to answer with. */
export type ForwardFailure = TransportFailure;

/** Headers that describe one connection, never passed along by a proxy (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Drops hop-by-hop headers, those a `Connection` header names, and undefined values. */
export function endToEndHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const named = connectionNamed(headers.connection);
  const kept: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named?.has(lower)) continue;
    kept[lower] = value;
  }
  return kept;
}

/** Header names a `Connection` header lists; none for the usual `keep-alive` or `close` (runs twice per forward). */
function connectionNamed(connection: string | string[] | undefined): Set<string> | undefined {
  if (connection === undefined || connection === 'keep-alive' || connection === 'close') return undefined;
  return new Set(
    String(connection)
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * Streams a request to a service in another process and its answer back, for the gateway. The
 * request is cancelled with its signal (the gateway's client left), so the upstream stops too.
 */
export class HttpForwarder {
  readonly #agent: Agent;
  readonly #headersTimeoutMs: number;
  readonly #bodyTimeoutMs: number;

  constructor(options: HttpForwarderOptions = {}) {
    this.#headersTimeoutMs = options.headersTimeoutMs ?? 30_000;
    this.#bodyTimeoutMs = options.bodyTimeoutMs ?? 300_000;
    this.#agent = new Agent({ connections: options.connections ?? 128, connectTimeout: 3_000, keepAliveTimeout: 30_000 });
  }

  /**
   * @param origin `http://host:port` (a path on it is ignored).
   * @throws ForwardError, whose `failure` says why.
   */
  async forward(origin: string, request: ForwardedRequest): Promise<ForwardedResponse> {
    if (request.signal.aborted) throw new ForwardError('aborted', abortError(request.signal, `${request.method} ${request.path}`));
    try {
      const response = await this.#agent.request({
        origin,
        path: request.path,
        method: request.method as 'GET',
        headers: requestHeaders(request.headers),
        body: request.body ?? null,
        signal: request.signal,
        headersTimeout: this.#headersTimeoutMs,
        bodyTimeout: this.#bodyTimeoutMs,
      });
      return { status: response.statusCode, headers: endToEndHeaders(response.headers), body: response.body };
    } catch (error) {
      throw new ForwardError(classifyTransportError(error, request.signal), error);
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

export class ForwardError extends Error {
  readonly failure: ForwardFailure;
  constructor(failure: ForwardFailure, cause: unknown) {
    super(`Forwarding failed (${failure})${cause instanceof Error ? `: ${cause.message}` : ''}`, { cause });
    this.name = 'ForwardError';
    this.failure = failure;
  }
}

/**
 * The upstream gets its own Host and a Content-Length for the body actually sent, and, with
 * tracing on, the trace context of this hop (written by the HTTP client instrumentation) instead
 * of the caller's.
 */
function requestHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const kept = endToEndHeaders(headers);
  delete kept.host;
  delete kept['content-length'];
  for (const name of traceHeaderNames()) delete kept[name];
  return kept;
}
