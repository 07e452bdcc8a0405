import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Timers } from '@crawl/clock';
import type { ResolvedAddress } from './address-guard.ts';

/** What one attempt produced: a response (any status) or an error without a status. */
export interface SendResult {
  statusCode: number | null;
  headers: IncomingHttpHeaders;
  /** The first bytes of the response body (for the delivery log). */
  body: string | null;
  error: string | null;
  latencyMs: number;
}

export interface SendRequest {
  url: URL;
  /** The checked addresses; the connection goes to the first one, never to a fresh DNS answer. */
  addresses: readonly ResolvedAddress[];
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export type Sender = (request: SendRequest) => Promise<SendResult>;

const RESPONSE_SNIPPET_BYTES = 1024;
const MAX_RESPONSE_BYTES = 64 * 1024;

/** A `lookup` that answers with the already checked address, whatever the name. */
export function pinnedLookup(address: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  }) as unknown as LookupFunction;
}

/**
 * POSTs one delivery with node:http(s): the socket connects to the pinned address (TLS still
 * verifies the certificate for the URL's host name), redirects are never followed (a 3xx is
 * just a non-2xx answer), and the whole attempt is bounded by `timeoutMs` on the given timers.
 */
export function createSender(timers: Timers, now: () => number = () => performance.now()): Sender {
  return (req) =>
    new Promise<SendResult>((resolve) => {
      const started = now();
      const address = req.addresses[0];
      const latency = () => Math.max(0, Math.round(now() - started));
      let settled = false;
      let cancelTimer = () => {};
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        cancelTimer();
        resolve({ ...result, latencyMs: latency() });
      };
      if (!address) {
        finish({ statusCode: null, headers: {}, body: null, error: 'no address to connect to' });
        return;
      }
      const isHttps = req.url.protocol === 'https:';
      const hostname = req.url.hostname.startsWith('[') ? req.url.hostname.slice(1, -1) : req.url.hostname;
      const options = {
        method: 'POST',
        hostname,
        port: req.url.port || (isHttps ? 443 : 80),
        path: `${req.url.pathname}${req.url.search}`,
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(req.body)),
          'user-agent': 'crawl-data-service-webhooks/1',
          host: req.url.host,
        },
        lookup: pinnedLookup(address),
        agent: false as const,
        ...(isHttps ? { servername: isIpLiteral(hostname) ? undefined : hostname } : {}),
      };
      const outgoing = (isHttps ? httpsRequest : httpRequest)(options, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
          else response.destroy();
        });
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            headers: response.headers,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'),
            error: null,
          });
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      });
      cancelTimer = timers.setTimeout(() => {
        finish({ statusCode: null, headers: {}, body: null, error: `timed out after ${req.timeoutMs} ms` });
        outgoing.destroy(new Error('timeout'));
      }, req.timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        finish({ statusCode: null, headers: {}, body: null, error: error.code ? `${error.code}: ${error.message}` : error.message });
      });
      outgoing.end(req.body);
    });
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
