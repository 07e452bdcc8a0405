import type { ServerResponse } from 'node:http';
import { AppError } from '@crawl/errors';

/** Whether the client went away before its response was complete (the connection is gone, the answer unfinished). */
export function clientLeft(response: ServerResponse): boolean {
  return response.destroyed && !response.writableFinished;
}

/**
 * A signal that aborts when the client goes away before its response is complete: the response
 * closes unfinished. (A request's own 'close' is no use here: Node emits it once the request body
 * has been read.) Pass it to internal calls made on the client's behalf so they stop with it.
 */
export function abortSignalFor(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (response.writableFinished) return controller.signal;
  if (clientLeft(response)) {
    controller.abort(new RequestAbortedError());
    return controller.signal;
  }
  response.once('close', () => {
    if (!response.writableFinished) controller.abort(new RequestAbortedError());
  });
  return controller.signal;
}

/** The caller gave up: answered with 499 (nobody reads it), logged below error level. */
export class RequestAbortedError extends AppError {
  constructor(message = 'The client closed the request') {
    super('REQUEST_ABORTED', message, 499);
    this.name = 'RequestAbortedError';
  }
}

/** The error to throw when a call stops because its signal aborted. */
export function abortError(signal: AbortSignal, what: string): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof RequestAbortedError) return reason;
  return Object.assign(new RequestAbortedError(`${what} was cancelled`), { cause: reason });
}

/** Resolves after `ms`, or rejects when the signal aborts first. */
export function abortableDelay(ms: number, signal: AbortSignal | undefined, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal, what));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal, what));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
