import type { Logger } from '@crawl/logging';
import type { FastifyInstance } from 'fastify';
import type { InitializedModule } from './init-modules.ts';
import type { MetricsServing } from './metrics-serving.ts';
import type { OpenBackends } from './open-backends.ts';
import type { ServiceClients } from './service-clients.ts';

/** What an HTTP server gets to finish its answers at shutdown even when the grace period is spent. */
const MIN_HTTP_CLOSE_MS = 1_000;

/** What a process closes, in the order it closes them. */
export interface ShutdownParts {
  readonly modules: readonly InitializedModule[];
  readonly logger: Logger;
  readonly graceMs: number;
  readonly app: FastifyInstance;
  readonly metricsServing: MetricsServing;
  readonly backends: OpenBackends;
  readonly clients: ServiceClients;
}

/**
 * With readiness already false (load balancers stop sending): workers stop taking work and get
 * the grace period for in-flight jobs (handed back after it), then connections close, then the
 * metrics listener, the queues, the clients and the backends.
 */
export async function shutDown(parts: ShutdownParts): Promise<void> {
  const deadline = Date.now() + parts.graceMs;
  await stopModules(parts.modules, parts.logger);
  await closeHttp(parts.app, deadline);
  await parts.metricsServing.close();
  await parts.backends.queues.close(Math.max(0, deadline - Date.now()));
  await parts.clients.close();
  await parts.backends.close();
}

/** In reverse order; a module that fails to stop is logged and the others still stop. */
async function stopModules(modules: readonly InitializedModule[], logger: Logger): Promise<void> {
  for (const { module, instance } of [...modules].reverse()) {
    try {
      await instance.stop?.();
    } catch (error) {
      logger.error({ err: error, module: module.name }, 'module failed to stop cleanly');
    }
  }
}

/**
 * A connection still answering at the deadline (a stream a client left half-open, a trickling
 * download) must not hold the process: it is cut then. Never less than a second.
 */
async function closeHttp(app: FastifyInstance, deadline: number): Promise<void> {
  const cutConnections = setTimeout(() => app.server.closeAllConnections(), Math.max(MIN_HTTP_CLOSE_MS, deadline - Date.now()));
  try {
    await app.close();
  } finally {
    clearTimeout(cutConnections);
  }
}
