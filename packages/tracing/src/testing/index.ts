import { context, createContextKey, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../start-tracing.ts';

/** A finished span as tests read it. */
export interface TracedSpan {
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  service: unknown;
  scope: string;
  attributes: Record<string, unknown>;
}

export interface InMemoryTracing {
  /** Every span finished so far (once its export, which may wait for the resource's attributes, is done). */
  spans(): Promise<TracedSpan[]>;
}

const KINDS: Record<SpanKind, TracedSpan['kind']> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

/**
 * Starts tracing in this process with every span kept in memory as it ends. The instrumentations
 * that need no module patching (Fastify's, undici's) and the queue spans work under the test
 * runner; HTTP, ioredis and MongoDB spans need a process started the way the binary starts.
 */
export async function startInMemoryTracing(serviceName = 'crawl-test'): Promise<InMemoryTracing> {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor(exporter);
  await startTracing({ serviceName, spanProcessors: [processor], loaderHook: false });
  return {
    spans: async () => {
      await processor.forceFlush();
      return exporter.getFinishedSpans().map((span) => ({
        name: span.name,
        kind: KINDS[span.kind],
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        service: span.resource.attributes['service.name'],
        scope: span.instrumentationScope.name,
        attributes: { ...span.attributes },
      }));
    },
  };
}

/** What the process registered with the OpenTelemetry API: nothing at all while tracing is off. */
export function registeredTelemetry(): { tracerProvider: boolean; propagator: boolean; contextManager: boolean } {
  const probe = trace.getTracer('probe').startSpan('probe');
  probe.end();
  const key = createContextKey('probe');
  return {
    tracerProvider: probe.isRecording() || trace.isSpanContextValid(probe.spanContext()),
    propagator: propagation.fields().length > 0,
    contextManager: context.with(ROOT_CONTEXT.setValue(key, true), () => context.active().getValue(key) === true),
  };
}
