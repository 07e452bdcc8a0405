import type { ConcreteRequest } from './fuzz-world.ts';
import type { Exchange } from './http-exchange.ts';
import { BODY_LIMIT_BYTES } from './request-plans.ts';

export type ViolationKind = '5xx' | 'hang' | 'no-response' | 'cross-tenant-2xx' | 'internal-route-2xx' | 'not-an-envelope';

export interface Violation {
  kind: ViolationKind;
  route: string;
  status: number | undefined;
  /** Where in the run: seed and request number, enough to replay it (FUZZ_SEED). */
  at: string;
  request: string;
  response: string;
}

/** `{"success":false,"error":{"code","message","details"}}`, the spec's error envelope. */
export function isErrorEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, details } = error as Record<string, unknown>;
  return typeof code === 'string' && code.length > 0 && typeof message === 'string' && Array.isArray(details);
}

function parsed(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A body over the limit may be refused by closing the connection while the client is still
 * sending it (RFC 9110, 413: the server may close the connection). The 413 is written first, but
 * the reset of the unread upload can reach the client before it has read the answer. Only a
 * reset or broken pipe of such an upload passes; any other request without an answer fails.
 */
export function refusedUpload(request: ConcreteRequest, error: string): boolean {
  return (request.body?.length ?? 0) > BODY_LIMIT_BYTES && /\b(ECONNRESET|EPIPE)\b/.test(error);
}

/** What is wrong with the answer to one request, if anything. */
export function violationOf(request: ConcreteRequest, result: Exchange): ViolationKind | undefined {
  if (result.outcome === 'timeout') return 'hang';
  if (result.outcome === 'no-response') return refusedUpload(request, result.error) ? undefined : 'no-response';
  if (result.status >= 500) return '5xx';
  const succeeded = result.status >= 200 && result.status < 300;
  if (request.crossTenant && succeeded) return 'cross-tenant-2xx';
  if (request.internal && succeeded) return 'internal-route-2xx';
  // A HEAD answer has no body to hold the envelope.
  if (result.status >= 400 && request.method !== 'HEAD' && !isErrorEnvelope(parsed(result.body))) return 'not-an-envelope';
  return undefined;
}

export function describeRequest(request: ConcreteRequest): string {
  const body = request.body ? ` body(${request.body.length} B)=${request.body.subarray(0, 300).toString('utf8')}` : '';
  const headers = Object.entries(request.headers)
    .filter(([name]) => name !== 'authorization')
    .map(([name, value]) => `${name}: ${value.slice(0, 80)}`)
    .join('; ');
  return `${request.method} ${request.path.slice(0, 400)} as ${request.caller}${headers ? ` [${headers}]` : ''}${body}`;
}

export function describeResult(result: Exchange): string {
  if (result.outcome !== 'response') return `${result.outcome} after ${result.ms} ms${'error' in result ? `: ${result.error}` : ''}`;
  return `${result.status} ${result.body.subarray(0, 300).toString('utf8')}`;
}
