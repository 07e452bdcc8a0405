import type { Logger } from '@crawl/logging';
import { noMetrics } from '@crawl/metrics';
import { ManualClock } from '@crawl/clock';
import type { CatalogResources } from '../features/shared/resources.ts';
import { FakeBilling } from './fake-billing.ts';

/** A logger that writes nothing, for services built outside a process. */
export function silentLogger(): Logger {
  const noop = () => undefined;
  const logger: Record<string, unknown> = { fatal: noop, error: noop, warn: noop, info: noop, debug: noop, trace: noop };
  logger.child = () => logger;
  return logger as unknown as Logger;
}

/** The resources a catalog service is built with, for a test that builds one on its own. */
export function testResources(overrides: Partial<CatalogResources> = {}): CatalogResources {
  const billing = new FakeBilling();
  return { clock: new ManualClock('2026-03-02T08:00:00.000Z'), logger: silentLogger(), metrics: noMetrics, billing: () => billing, ...overrides };
}
