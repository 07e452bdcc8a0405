// Loaded only when tracing is on: the SDK and the instrumentations cost start-up time and memory
// that a process without tracing never pays.
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { Span } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Probes and scrapes: frequent, always the same, and no part of any job's story. */
const UNTRACED_PATHS = new Set(['/health', '/live', '/ready', '/metrics']);

function untraced(url: string | undefined): boolean {
  if (!url) return false;
  const query = url.indexOf('?');
  return UNTRACED_PATHS.has(query < 0 ? url : url.slice(0, query));
}

export interface NodeSdkOptions {
  /** Used unless OTEL_SERVICE_NAME (or service.name in OTEL_RESOURCE_ATTRIBUTES) names the service. */
  serviceName?: string | undefined;
  /** Instead of the exporter the OTEL_* environment describes (tests pass an in-memory one). */
  spanProcessors?: SpanProcessor[] | undefined;
}

/**
 * The OpenTelemetry Node SDK for traces only (metrics are Prometheus', logs go to stdout), with
 * the instrumentations of what a request or task touches: HTTP servers and clients, Fastify
 * routes, undici (service calls, forwarding, marketplace fetches), ioredis (BullMQ, the shared
 * rate budget) and the MongoDB driver. Exporter, sampler, propagators and resource come from
 * the standard OTEL_* variables.
 */
export function createNodeSdk(options: NodeSdkOptions): NodeSDK {
  return new NodeSDK({
    ...(options.serviceName ? { serviceName: options.serviceName } : {}),
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => untraced(request.url) }),
      new FastifyOtelInstrumentation({
        // Fastify announces each new instance on a diagnostics channel: no module patching needed.
        registerOnInitialization: true,
        ignorePaths: (route) => untraced(route.url),
        // One span per request and one for its handler; a span per hook would be mostly noise.
        instrumentHooks: false,
        requestHook: nameAfterRoute,
      }),
      new UndiciInstrumentation(),
      // Only commands issued for a request or a task: BullMQ's blocking polls would be a trace each.
      // The command name only: BullMQ's EVALSHA arguments are whole task payloads.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
      new MongoDBInstrumentation({ requireParentSpan: true }),
    ],
  });
}

/** `POST /projects/:projectId/jobs`, the route template: never an id in a span name. */
function nameAfterRoute(span: Span, request: { method: string; routeOptions: { url?: string | undefined } }): void {
  span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`);
}
