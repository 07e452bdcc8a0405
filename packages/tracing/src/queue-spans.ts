import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { tracingActive } from './tracing-state.ts';

/** The W3C trace context a queued task carries from the producer's span to its consumer's. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;
const TRACESTATE_MAX = 512;

const tracer = () => trace.getTracer('@crawl/tracing');

/** A carrier read back from a task, if it is one (payloads come from storage: never trusted as given). */
export function traceCarrierFrom(traceparent: unknown, tracestate: unknown): TraceCarrier | undefined {
  if (typeof traceparent !== 'string' || !TRACEPARENT.test(traceparent)) return undefined;
  return typeof tracestate === 'string' && tracestate.length <= TRACESTATE_MAX ? { traceparent, tracestate } : { traceparent };
}

/**
 * Runs `send` (adding one task to `queue`) in a producer span, and hands it the trace context to
 * store in the task. With tracing off `send` runs as it is and gets no carrier (`attributes` is
 * called only when there is a span to put them on).
 */
export function tracedSend<T>(queue: string, attributes: () => Attributes, send: (carrier: TraceCarrier | undefined) => Promise<T>): Promise<T> {
  if (!tracingActive()) return send(undefined);
  const span = tracer().startSpan(`send ${queue}`, { kind: SpanKind.PRODUCER, attributes: { ...messaging(queue, 'send'), ...attributes() } });
  const active = trace.setSpan(context.active(), span);
  const fields: Record<string, string> = {};
  propagation.inject(active, fields);
  return settle(
    span,
    context.with(active, () => send(traceCarrierFrom(fields.traceparent, fields.tracestate))),
  );
}

/**
 * Runs a task's handler in a consumer span whose parent is the producer's span in the task's
 * carrier, so the work done for a queued task belongs to the trace of the request that queued
 * it. A task without a carrier (queued with tracing off, or by an older version) starts a trace.
 */
export function tracedProcess<T>(queue: string, carrier: TraceCarrier | undefined, attributes: () => Attributes, run: () => Promise<T>): Promise<T> {
  if (!tracingActive()) return run();
  // Never the context the queue's own machinery happens to run in (a Redis poll, another task).
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  const span = tracer().startSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, attributes: { ...messaging(queue, 'process'), ...attributes() } }, parent);
  return settle(
    span,
    context.with(trace.setSpan(parent, span), () => run()),
  );
}

function messaging(queue: string, operation: 'send' | 'process'): Attributes {
  return { 'messaging.destination.name': queue, 'messaging.operation.type': operation, 'messaging.operation.name': operation };
}

async function settle<T>(span: Span, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    if (error instanceof Error) span.recordException(error);
    throw error;
  } finally {
    span.end();
  }
}
