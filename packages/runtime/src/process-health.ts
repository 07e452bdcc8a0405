import { HealthRegistry } from '@crawl/health';
import type { OpenBackends } from './open-backends.ts';

/** The process's health indicators: `api`, then the backends' (`mongo`, `redis`); modules add theirs at init. */
export function processHealth(backends: OpenBackends): HealthRegistry {
  const health = new HealthRegistry();
  health.register('api', async () => true);
  for (const [name, check] of Object.entries(backends.health ?? {})) health.register(name, check);
  return health;
}
