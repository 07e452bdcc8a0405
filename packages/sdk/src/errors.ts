import type { ErrorCode } from '@crawl/contracts';

/** The wire codes, plus any code a newer server may add. */
export type CrawlErrorCode = ErrorCode | (string & {});

/**
 * The API answered with its error envelope (`{success: false, error: {code, message, details}}`),
 * whatever the HTTP status: login's documented variant answers 200 with the envelope.
 */
export class CrawlApiError extends Error {
  override readonly name = 'CrawlApiError';
  readonly code: CrawlErrorCode;
  readonly status: number;
  readonly details: readonly unknown[];
  /** The `x-request-id` of the answer: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  /** From `Retry-After` on 429 and 503 answers. */
  readonly retryAfterMs: number | undefined;

  constructor(init: { code: CrawlErrorCode; message: string; status: number; details?: readonly unknown[]; requestId?: string; retryAfterMs?: number }) {
    super(init.message);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? [];
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The request never got an answer (refused connection, DNS, reset, TLS), or the answer was not HTTP the client understands. */
export class CrawlConnectionError extends Error {
  override readonly name = 'CrawlConnectionError';
  readonly url: string;

  constructor(url: string, cause: unknown) {
    super(`could not reach ${url}: ${describeCause(cause)}`, { cause });
    this.url = url;
  }
}

/** True for an API error, optionally of one code: `isCrawlApiError(e, 'NOT_FOUND')`. */
export function isCrawlApiError(error: unknown, code?: CrawlErrorCode): error is CrawlApiError {
  return error instanceof CrawlApiError && (code === undefined || error.code === code);
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's fetch wraps the socket error (ECONNREFUSED, ENOTFOUND) in `cause`.
  const inner = (cause as Error & { cause?: unknown }).cause;
  return inner instanceof Error ? `${cause.message} (${inner.message})` : cause.message;
}
