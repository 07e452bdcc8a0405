import type { Identity } from '@crawl/contracts';

export interface ServiceRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The end user on whose behalf the call is made, when there is one. */
  identity?: Identity | null;
  requestId?: string;
  /** Safe to repeat after a network failure (reads and idempotent writes keyed by an id). */
  idempotent?: boolean;
  timeoutMs?: number;
  /**
   * Cancels the call: the HTTP request is aborted (the callee sees its client go away) and no retry
   * follows; an in-process call stops being waited for. Pass the caller's own request signal
   * (`abortSignalFor(reply.raw)`) so work for a client that left stops downstream too.
   */
  signal?: AbortSignal;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** How a request reaches another service: in-process injection or HTTP. */
export interface ServiceTransport {
  readonly kind: 'local' | 'http';
  send(request: ServiceRequest, headers: Record<string, string>): Promise<ServiceResponse>;
}

export function withQuery(path: string, query: ServiceRequest['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}
