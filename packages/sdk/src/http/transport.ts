import { codeForStatus, pathOf, type RouteSpec } from '@crawl/contracts';
import { CrawlApiError, CrawlConnectionError } from '../errors.ts';
import type { RouteInput, RouteOutput } from '../route-types.ts';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, type ResolvedRetryOptions, type RetryOptions, retryDelay, sleep } from './retry-policy.ts';

export interface RetryEvent {
  attempt: number;
  delayMs: number;
  status: number;
  method: string;
  url: string;
}

export interface TransportOptions {
  /** Where the API is, e.g. `http://localhost:3000` (the gateway or the all-in-one). */
  baseUrl: string;
  /** The bearer token; a function is asked on every request (a token that changes, e.g. after login). */
  token?: string | (() => string | undefined);
  /** Another fetch (a browser's, a test double, one with a proxy agent). Default the global fetch. */
  fetch?: typeof fetch;
  /** Retries of 429 and 503 answers; `false` turns them off. */
  retry?: RetryOptions | false;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Told before each retry's wait (for logs or a "rate limited, retrying" line). */
  onRetry?: (event: RetryEvent) => void;
}

export interface CallOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Statuses besides 2xx whose answer is returned rather than thrown (health's 503 carries a report). */
  okStatuses?: readonly number[];
}

type QueryValue = string | number | boolean | null | undefined;

/** A body sent as it is rather than as JSON (uploads). A stream goes out as it is read. */
export type UploadBody = string | Uint8Array | ReadableStream<Uint8Array>;

/** Sends requests for route specs: URL from the spec, bearer token, JSON bodies, retries, and the error envelope as `CrawlApiError`. */
export class Transport {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly retry: ResolvedRetryOptions;
  private readonly options: TransportOptions;
  private token: string | (() => string | undefined) | undefined;

  constructor(options: TransportOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // Bound: a browser's fetch throws "Illegal invocation" when called as a method of another object.
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.retry = options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
    this.token = options.token;
  }

  setToken(token: string | undefined): void {
    this.token = token;
  }

  currentToken(): string | undefined {
    return typeof this.token === 'function' ? this.token() : this.token;
  }

  /** Calls a JSON route and returns its parsed 2xx body (null for 204). */
  async call<R extends RouteSpec>(route: R, input: RouteInput<R>, options: CallOptions = {}): Promise<RouteOutput<R>> {
    const response = await this.open(route, input, options);
    return (await readJson(response)) as RouteOutput<R>;
  }

  /** Opens a route and returns the 2xx response unread (files, event streams); error answers throw. */
  async open<R extends RouteSpec>(route: R, input: RouteInput<R>, options: CallOptions = {}): Promise<Response> {
    const { params, query, body } = input as { params?: Record<string, string>; query?: Record<string, QueryValue>; body?: unknown };
    const path = pathOf(route, (params ?? {}) as never);
    return this.request(route.method, path, { query, body, ...options });
  }

  /** Calls a JSON-answering route with a body of another media type (an upload). */
  async upload<R extends RouteSpec>(
    route: R,
    input: RouteInput<R>,
    raw: { payload: UploadBody; contentType: string },
    options: CallOptions = {},
  ): Promise<RouteOutput<R>> {
    const { params, query } = input as { params?: Record<string, string>; query?: Record<string, QueryValue> };
    const path = pathOf(route, (params ?? {}) as never);
    return (await readJson(await this.request(route.method, path, { query, raw, ...options }))) as RouteOutput<R>;
  }

  /** A request to any path of the API, for routes the contracts do not list (yet). */
  async request(
    method: string,
    path: string,
    options: CallOptions & {
      query?: Record<string, QueryValue> | undefined;
      body?: unknown;
      raw?: { payload: UploadBody; contentType: string } | undefined;
    } = {},
  ): Promise<Response> {
    const url = this.url(path, options.query);
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, ...options.headers };
    const token = this.currentToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: UploadBody | undefined;
    if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      payload = options.raw.payload;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.body);
    }
    // A stream is read once: it goes out as it is read (half duplex), and is never sent again.
    const streamed = typeof ReadableStream !== 'undefined' && payload instanceof ReadableStream;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method,
          headers,
          ...(payload === undefined ? {} : { body: payload as NonNullable<RequestInit['body']> }),
          ...(streamed ? { duplex: 'half' } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        } as RequestInit);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        throw new CrawlConnectionError(url, error);
      }
      if (response.ok || options.okStatuses?.includes(response.status)) return response;
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const delayMs = !streamed && isRetryable(method, response.status) ? retryDelay(attempt, retryAfterMs, this.retry) : undefined;
      if (delayMs === undefined) throw await errorFrom(response, retryAfterMs);
      await response.body?.cancel();
      this.options.onRetry?.({ attempt, delayMs, status: response.status, method, url });
      await sleep(delayMs, options.signal);
    }
  }

  private url(path: string, query: Record<string, QueryValue> | undefined): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.set(key, String(value));
    }
    const qs = search.toString();
    return `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }
}

/** The body of a 2xx JSON answer; an error envelope in a 2xx (login's documented variant) throws. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (response.status === 204 || text === '') return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CrawlApiError({ code: 'BAD_GATEWAY', status: response.status, message: `the API answered ${response.status} with a body that is not JSON` });
  }
  const envelope = asEnvelope(body);
  if (envelope) throw new CrawlApiError({ ...envelope, status: response.status, ...requestIdOf(response) });
  return body;
}

/** The CrawlApiError for an error answer: its envelope, or the generic code for its status when it has none. */
export async function errorFrom(response: Response, retryAfterMs?: number): Promise<CrawlApiError> {
  const text = await response.text().catch(() => '');
  let envelope: ReturnType<typeof asEnvelope>;
  try {
    envelope = asEnvelope(JSON.parse(text));
  } catch {
    envelope = undefined;
  }
  return new CrawlApiError({
    code: envelope?.code ?? codeForStatus(response.status),
    message: envelope?.message ?? `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
    details: envelope?.details ?? [],
    status: response.status,
    ...requestIdOf(response),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function asEnvelope(body: unknown): { code: string; message: string; details: unknown[] } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { success, error } = body as { success?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } };
  if (success !== false || typeof error !== 'object' || error === null) return undefined;
  return {
    code: typeof error.code === 'string' ? error.code : 'INTERNAL_ERROR',
    message: typeof error.message === 'string' ? error.message : 'request failed',
    details: Array.isArray(error.details) ? error.details : [],
  };
}

function requestIdOf(response: Response): { requestId?: string } {
  const id = response.headers.get('x-request-id');
  return id ? { requestId: id } : {};
}
