import type { HealthRegistry } from '@crawl/health';
import type { FastifyInstance, FastifySchema } from 'fastify';

export interface ProbeOptions {
  readonly health: HealthRegistry;
  /** The process has started and is not shutting down. */
  readonly isReady: () => boolean;
}

/**
 * The probes: `/health` (every indicator, in the spec's shape), `/live` (the process alone) and
 * `/ready` (started, not shutting down, every indicator up). Public, and left out of the API
 * document.
 */
export function registerProbeRoutes(app: FastifyInstance, { health, isReady }: ProbeOptions): void {
  app.route({
    method: 'GET',
    url: '/health',
    config: { access: 'public', owner: 'gateway' },
    schema: { hide: true } as FastifySchema,
    handler: async (_request, reply) => {
      const report = await health.report();
      return reply.code(report.status === 'ok' ? 200 : 503).send(report);
    },
  });
  // Liveness is the process alone: a database outage must not get healthy pods restarted.
  app.route({
    method: 'GET',
    url: '/live',
    config: { access: 'public' },
    schema: { hide: true } as FastifySchema,
    handler: async () => ({ alive: true }),
  });
  app.route({
    method: 'GET',
    url: '/ready',
    config: { access: 'public' },
    schema: { hide: true } as FastifySchema,
    handler: async (_request, reply) => {
      const report = await health.report();
      const ok = isReady() && report.status === 'ok';
      return reply.code(ok ? 200 : 503).send({ ready: ok });
    },
  });
}
