/**
 * Tracing is off unless the standard OpenTelemetry environment asks for an exporter: an OTLP
 * endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces-only one) or an explicit
 * `OTEL_TRACES_EXPORTER` other than `none`. `OTEL_SDK_DISABLED=true` wins over both.
 */
export function tracingRequested(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return false;
  return Boolean(exporter || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The process's name in traces: the service it runs, or `crawl-data-service` for the whole service in one process. */
export function defaultServiceName(targets: readonly string[], everyTarget: readonly string[]): string {
  if (targets.length === 0 || everyTarget.every((target) => targets.includes(target))) return 'crawl-data-service';
  return `crawl-${targets.join('+')}`;
}

/** Whether the environment names the service itself (then it wins over the default). */
export function serviceNameConfigured(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SERVICE_NAME?.trim()) return true;
  return (env.OTEL_RESOURCE_ATTRIBUTES ?? '').split(',').some((pair) => pair.trim().startsWith('service.name='));
}
