/**
 * Whether an error says "our own infrastructure is down for now" (catalog, billing or their
 * database, Redis) rather than anything about the target: such errors must not spend one of the
 * target's crawl attempts. Internal calls answer 502/503/504 (ServiceClient maps every 5xx and
 * unreachable callee to those), the stores throw StorageUnavailableError (503), sockets fail with
 * the usual network codes; the cause chain is followed for wrapped errors.
 */
const UNAVAILABLE_STATUS = new Set([502, 503, 504]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const UNAVAILABLE_NAMES = new Set(['StorageUnavailableError', 'MaxRetriesPerRequestError']);
const CAUSE_DEPTH = 5;

export function isInfrastructureError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < CAUSE_DEPTH && typeof current === 'object' && current !== null; depth += 1) {
    const { statusCode, code, name, cause } = current as { statusCode?: unknown; code?: unknown; name?: unknown; cause?: unknown };
    if (typeof statusCode === 'number' && UNAVAILABLE_STATUS.has(statusCode)) return true;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) return true;
    current = cause;
  }
  return false;
}
