import { AppError } from './app-error.ts';

/** How long a client should wait after a 503 when nothing more precise is known: a restarting service is back in seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The error catalogue: every client-facing failure is raised through one of these. */
export const errors = {
  /** The details list every problem found; a single problem is the message itself (as schema failures are). */
  validation: (message: string, details: unknown[] = [message]) => new AppError('VALIDATION_ERROR', message, 400, details),
  unauthorized: (message = 'Authentication required') => new AppError('UNAUTHORIZED', message, 401),
  invalidCredentials: () => new AppError('INVALID_CREDENTIALS', 'Invalid email or password', 401),
  forbidden: (message = 'You do not have access to this resource') => new AppError('FORBIDDEN', message, 403),
  notFound: (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`, 404),
  conflict: (message: string, details: unknown[] = []) => new AppError('CONFLICT', message, 409, details),
  insufficientCredits: (required: number, available: number) =>
    new AppError('INSUFFICIENT_CREDITS', `Insufficient credits: ${required} required, ${available} available`, 402, [{ required, available }]),
  quotaExceeded: (message: string) => new AppError('FORBIDDEN', message, 403),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('RATE_LIMIT_EXCEEDED', `Rate limit exceeded, retry in ${retryAfterSeconds} seconds`, 429, [], { 'retry-after': String(retryAfterSeconds) }),
  /** Every 503 says when to come back: clients and proxies retry after it instead of at once. */
  unavailable: (message = 'A dependency is unavailable, try again shortly', retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS) =>
    new AppError('SERVICE_UNAVAILABLE', message, 503, [], { 'retry-after': String(retryAfterSeconds) }),
  badGateway: (message = 'An internal service answered unexpectedly') => new AppError('BAD_GATEWAY', message, 502),
  gatewayTimeout: (message = 'An internal service did not answer in time') => new AppError('GATEWAY_TIMEOUT', message, 504),
};
