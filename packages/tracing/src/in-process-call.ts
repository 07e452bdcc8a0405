import { context } from '@opentelemetry/api';
import { deleteRPCMetadata } from '@opentelemetry/core';
import { tracingActive } from './tracing-state.ts';

/**
 * Runs an in-process service call (Fastify's `inject`) as a request of its own. The route of the
 * request being served travels in the active context for the HTTP server span's name; the
 * injected request would overwrite it with its own (an HTTP span for `POST /projects/:id/jobs`
 * named after billing's reservation route).
 */
export function asInProcessCall<T>(call: () => T): T {
  if (!tracingActive()) return call();
  return context.with(deleteRPCMetadata(context.active()), call);
}
