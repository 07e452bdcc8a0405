import { errors as undiciErrors } from 'undici';

/**
 * Why a call to another service got no usable answer: the caller left (`aborted`), the callee took
 * too long (`timeout`), it could not be reached or dropped the connection before answering
 * (`unreachable`), it answered something that is not HTTP (`invalid`), or anything else (`failed`).
 */
export type TransportFailure = 'aborted' | 'timeout' | 'unreachable' | 'invalid' | 'failed';

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ETIMEDOUT']);

export function classifyTransportError(error: unknown, signal?: AbortSignal): TransportFailure {
  if (signal?.aborted) return 'aborted';
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) return 'timeout';
  if (error instanceof undiciErrors.ConnectTimeoutError || error instanceof undiciErrors.SocketError) return 'unreachable';
  if (
    error instanceof undiciErrors.HTTPParserError ||
    error instanceof undiciErrors.ResponseContentLengthMismatchError ||
    error instanceof undiciErrors.HeadersOverflowError
  ) {
    return 'invalid';
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return 'unreachable';
  return 'failed';
}
