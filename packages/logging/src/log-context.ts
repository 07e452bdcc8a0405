import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What every log line of a request or a queued task carries: the request id that started it
 * (the gateway's `x-request-id`, passed on to services and into queued tasks), the organization,
 * and the crawl job where there is one. Only ids, never names or addresses.
 */
export interface LogContext {
  reqId?: string;
  orgId?: string;
  jobId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();
const NONE: LogContext = Object.freeze({});

/** Runs `work` with `context` as its log context; lines logged anywhere inside carry its fields. */
export function runWithLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run(context, work);
}

/** The log context of the running request or task (an empty one outside of them). */
export function currentLogContext(): LogContext {
  return storage.getStore() ?? NONE;
}

/**
 * Adds fields to the running request's or task's context (catalog names the job once it has
 * created it). Outside a request or task it does nothing.
 */
export function annotateLogContext(fields: LogContext): void {
  const context = storage.getStore();
  if (context) Object.assign(context, fields);
}
