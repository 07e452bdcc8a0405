import { traceHeaderNames } from '@crawl/tracing';

type Headers = Record<string, string | string[] | undefined>;

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
export function endToEndHeaders(headers: Headers): Record<string, string | string[]> {
  return keptHeaders(headers, undefined);
}

/**
 * The headers a request goes upstream with, in one pass over the client's: end-to-end ones only,
 * less `dropped` (lower case), the Host (the upstream gets its own), the Content-Length (undici
 * writes the one of the body actually sent) and, with tracing on, the caller's trace context (the
 * HTTP client instrumentation writes this hop's).
 */
export function upstreamRequestHeaders(headers: Headers, dropped: ReadonlySet<string>): Record<string, string | string[]> {
  const kept = keptHeaders(headers, dropped);
  for (const name of traceHeaderNames()) delete kept[name];
  return kept;
}

const ALWAYS_DROPPED_UPSTREAM = new Set(['host', 'content-length']);

function keptHeaders(headers: Headers, dropped: ReadonlySet<string> | undefined): Record<string, string | string[]> {
  const named = connectionNamed(headers.connection);
  const kept: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named?.has(lower)) continue;
    if (dropped && (dropped.has(lower) || ALWAYS_DROPPED_UPSTREAM.has(lower))) continue;
    kept[lower] = value;
  }
  return kept;
}

/** Header names a `Connection` header lists; none for the usual `keep-alive` or `close`. */
function connectionNamed(connection: string | string[] | undefined): Set<string> | undefined {
  if (connection === undefined || connection === 'keep-alive' || connection === 'close') return undefined;
  return new Set(
    String(connection)
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
}
