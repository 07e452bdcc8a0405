import { describe, expect, it } from 'vitest';
import { defaultServiceName, serviceNameConfigured, tracingRequested } from './tracing-settings.ts';

describe('tracing settings', () => {
  it('is off without an exporter setting, on with an OTLP endpoint or an explicit exporter', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_SERVICE_NAME: 'crawl' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
  });

  it('stays off when the standard switches say so, whatever the endpoint', () => {
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' })).toBe(true);
  });

  it('names a process after the services it runs, the all-in-one crawl-data-service', () => {
    const every = ['gateway', 'auth', 'catalog', 'billing', 'crawler-worker'];
    expect(defaultServiceName(every, every)).toBe('crawl-data-service');
    expect(defaultServiceName(['catalog'], every)).toBe('crawl-catalog');
    expect(defaultServiceName(['crawler-worker'], every)).toBe('crawl-crawler-worker');
    expect(defaultServiceName(['auth', 'billing', 'catalog'], every)).toBe('crawl-auth+billing+catalog');
  });

  it('leaves the name to OTEL_SERVICE_NAME or service.name in OTEL_RESOURCE_ATTRIBUTES when set', () => {
    expect(serviceNameConfigured({})).toBe(false);
    expect(serviceNameConfigured({ OTEL_SERVICE_NAME: 'crawl-eu' })).toBe(true);
    expect(serviceNameConfigured({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod, service.name=crawl-eu' })).toBe(true);
    expect(serviceNameConfigured({ OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod' })).toBe(false);
  });
});
