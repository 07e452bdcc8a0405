import { errorHandlerPlugin } from '@crawl/errors';
import type { ProcessMetrics } from '@crawl/metrics';
import type { InternalTokens } from '@crawl/service-client';
import type { FastifyInstance } from 'fastify';
import { accessControlPlugin, type IdentityResolver } from './access-control.ts';
import { httpMetricsPlugin } from './http-metrics.ts';
import { noStorePlugin } from './no-store.ts';
import { requestContextPlugin } from './request-context.ts';

export interface RequestPipelineOptions {
  readonly metrics: ProcessMetrics;
  /** Verify service tokens and forwarded identities. */
  readonly tokens: InternalTokens;
  /** The Bearer-token resolver, where the gateway runs in this process; asked once the app is ready. */
  readonly resolver: () => IdentityResolver | undefined;
}

/**
 * What every request goes through, registered at the root before any route so that each route
 * gets its hooks: the log context, the duration metric, the error envelope, no-store where a
 * route declares it, and access control.
 */
export async function registerRequestPipeline(app: FastifyInstance, options: RequestPipelineOptions): Promise<void> {
  await app.register(requestContextPlugin);
  await app.register(httpMetricsPlugin, { metrics: options.metrics });
  await app.register(errorHandlerPlugin);
  await app.register(noStorePlugin);
  await app.register(accessControlPlugin, { tokens: options.tokens, resolver: options.resolver });
}
