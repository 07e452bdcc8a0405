import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { markTracingStarted, tracingActive } from './tracing-state.ts';
import { serviceNameConfigured, tracingRequested } from './tracing-settings.ts';

export interface StartTracingOptions {
  /** Decides whether tracing is on (default `process.env`); the SDK itself reads the OTEL_* variables from `process.env`. */
  env?: Record<string, string | undefined>;
  /** The default service name; OTEL_SERVICE_NAME wins. */
  serviceName?: string;
  /** Export to these instead of what the environment describes; tracing is then on whatever the environment says. */
  spanProcessors?: SpanProcessor[];
  /**
   * Put the ES-module loader hook in place (default true). A process does, before it imports the
   * modules the instrumentations patch; a test runner that loads modules its own way does not.
   */
  loaderHook?: boolean;
}

/**
 * Starts OpenTelemetry tracing when the environment asks for it (tracing-settings.ts), before the
 * rest of the process is imported. With tracing off nothing is loaded or registered: no global
 * tracer provider, propagator or context manager, no instrumentation.
 * @returns whether tracing is on.
 */
export async function startTracing(options: StartTracingOptions = {}): Promise<boolean> {
  if (tracingActive()) return true;
  const env = options.env ?? process.env;
  if (!options.spanProcessors && !tracingRequested(env)) return false;
  if (options.loaderHook ?? true) (await import('./loader-hook.ts')).registerLoaderHook();
  const { createNodeSdk } = await import('./node-sdk.ts');
  const sdk = createNodeSdk({ serviceName: serviceNameConfigured(env) ? undefined : options.serviceName, spanProcessors: options.spanProcessors });
  sdk.start();
  markTracingStarted({ shutdown: () => sdk.shutdown() });
  return true;
}
