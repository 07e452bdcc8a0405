import { propagation } from '@opentelemetry/api';
import { tracingActive } from './tracing-state.ts';

/**
 * The headers that carry trace context (`traceparent`, `tracestate`, `baggage`) while tracing is
 * on, none otherwise. A proxy drops the incoming ones: the HTTP client instrumentation writes its
 * own for the forwarded request, and a second copy would make both unreadable.
 */
export function traceHeaderNames(): readonly string[] {
  return tracingActive() ? propagation.fields() : [];
}
