// The light entry: the OpenTelemetry API only. The SDK and instrumentations load when tracing starts.
export { asInProcessCall } from './in-process-call.ts';
export { traceHeaderNames } from './propagation-headers.ts';
export { traceCarrierFrom, tracedProcess, tracedSend, type TraceCarrier } from './queue-spans.ts';
export { startTracing, type StartTracingOptions } from './start-tracing.ts';
export { shutdownTracing, tracingActive } from './tracing-state.ts';
export { defaultServiceName, tracingRequested } from './tracing-settings.ts';
